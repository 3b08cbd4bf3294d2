; Per-function skipping: `broken` is a function LLVM's parser accepts but its verifier rejects
; (a use its definition does not dominate), so it is skipped and reported; the other functions
; are analyzed all the same. `pair_first` (an `extractvalue` from a named struct) is one the
; earlier front end, through the llvm-ir crate, could not lower.
%pair = type { i32, i64 }

define i32 @before(i32 %a) {
entry:
  %x = add i32 2, 3
  ret i32 %x
}

define i32 @broken(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  %y = add i32 %x, 1
  ret i32 %y
}

define i32 @pair_first(%pair %p) {
entry:
  %f = extractvalue %pair %p, 0
  %g = add i32 %f, 1
  ret i32 %g
}

define i32 @after() {
entry:
  %c = call i32 @broken(i1 true)
  %y = mul i32 4, 5
  ret i32 %y
}
