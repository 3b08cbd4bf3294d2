# An exit function passing two values: the abstraction of 2 gives (x, x) when it returns and
# (0, x) when it leaves through ^k, so + always takes two arguments.
1:(+ 2:((lambda (^k x)
          3:(block x 4:(5:(cond 6:(< x 0) (lambda () 7:(^k 0 x)) (lambda () x)))))
        p))
