# One abstraction called at two sites with different constants: 0-CFA joins what x is bound
# to, one call site of context (--context kcfa=1) keeps the sites apart.
1:((lambda (double) 2:(+ 3:(double 1) 4:(double 10)))
   (lambda (x) 5:(* x 2)))
