# The identity applied to a function at 4 and to another at 7: with 0-CFA both calls give
# both functions, so both λa and λb are called at 3 and at 6; with one call site of context
# each call gives the function it was given.
1:((lambda (id)
     2:(+ 3:(4:(id (lambda (a) 5:(+ a 1))) 10)
          6:(7:(id (lambda (b) 8:(* b 2))) 20)))
   (lambda (x) x))
