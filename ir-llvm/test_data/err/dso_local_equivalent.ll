; llvm-ir 0.11 could not represent dso_local_equivalent constants and panicked on them; LLVM
; reads them (the front end now reads LLVM's module in place).
declare void @f()
define ptr @g() {
entry:
  ret ptr dso_local_equivalent @f
}
