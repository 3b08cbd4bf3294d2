# The identity applied to an integer at 3 and to a function at 5: its parameter is Int at
# one site and Int → Int at the other, which 0-CFA joins.
1:((lambda (id)
     2:(+ 3:(id 1)
          4:(5:(id (lambda (y) 6:(+ y 1))) 2)))
   (lambda (x) x))
