; llvm-ir 0.11 cannot represent dso_local_equivalent constants and panics on them.
declare void @f()
define ptr @g() {
entry:
  ret ptr dso_local_equivalent @f
}
