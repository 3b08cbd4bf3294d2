# An exit function: the loop has no way out but ^found, which returns i from application 1
# as soon as i * i passes n, like catch and throw. `cond` chooses a thunk, which 2 applies.
1:((lambda (^found n)
     (letrec ((loop (lambda (i)
                      2:(3:(cond 4:(> 5:(* i i) n)
                                 (lambda () 6:(^found i))
                                 (lambda () 7:(loop 8:(+ i 1))))))))
       9:(loop 0)))
   20)
