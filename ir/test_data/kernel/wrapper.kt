# wrap calls id from one site (5), so one call site of context still joins the two uses of
# wrap inside id; two call sites (kcfa=2) keep them apart.
1:((lambda (id)
     2:((lambda (wrap) 3:(+ 4:(wrap 1) 6:(wrap 100)))
        (lambda (w) 5:(id w))))
   (lambda (x) x))
