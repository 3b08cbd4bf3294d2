# P1 of the behavior-graph paper: f is bound to one of two abstractions, chosen by the
# input p, and applied to 1.
1:((lambda (f) 2:(f 1))
   3:(cond p (lambda (x) 4:(+ x 1)) (lambda (y) 5:(* y 2))))
