# Multiple values: divmod gives two values with `block`; the application of the abstraction
# of two parameters takes both from the one call (7).
(letrec ((divmod (lambda (a b) 1:(block 2:(/ a b) 3:(% a b)))))
  4:((lambda (q r) 5:(+ 6:(* q 10) r)) 7:(divmod 17 5)))
