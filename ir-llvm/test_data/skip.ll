; Per-function skipping: `pair_first` is a function the lowering once could not handle (llvm-ir
; panicked on the type of an `extractvalue` from a named struct); the other functions are
; analyzed all the same.
%pair = type { i32, i64 }

define i32 @before(i32 %a) {
entry:
  %x = add i32 2, 3
  ret i32 %x
}

define i32 @pair_first(%pair %p) {
entry:
  %f = extractvalue %pair %p, 0
  %g = add i32 %f, 1
  ret i32 %g
}

define i32 @after() {
entry:
  %c = call i32 @pair_first(%pair zeroinitializer)
  %y = mul i32 4, 5
  ret i32 %y
}
