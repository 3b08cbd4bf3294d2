; A syntax error: the parameter list is not closed.
define i32 @g( {
  ret i32 0
}
