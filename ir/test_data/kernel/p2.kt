# P2 of the behavior-graph paper: f either calls itself on g's result or binds m to n + 3 and
# calls itself on m + 2; g adds one. n, x and m form one set of basic induction parameters.
(letrec ((f (lambda (n)
              2:(cond p
                      3:(f 4:(g n))
                      5:((lambda (m) 6:(f 7:(+ m 2))) 8:(+ n 3)))))
         (g (lambda (x) 9:(+ x 1))))
  1:(f 0))
