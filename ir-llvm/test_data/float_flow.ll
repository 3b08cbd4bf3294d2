; Floating-point values as values: known floats flow through φs, selects, loads of constant
; globals and loops, and the core IR's floating-point operations compute with them (IEEE, round
; to nearest, ties to even). The comments give what LLVM's SCCP finds.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

@table = constant [4 x double] [double 1.000000e+00, double 2.500000e+00, double -0.000000e+00, double 0x7FF0000000000000]
@floats = constant { float, float } { float 1.500000e+00, float 0x3FB99999A0000000 }
@zeros = constant [2 x double] zeroinitializer

; Both arms give 1.5: the φ is 1.5, so `fptosi` is 1 and the comparison decides the branch.
define i32 @phi_of_equal(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = fadd double 1.000000e+00, 5.000000e-01
  br label %join
b:
  %y = fmul double 3.000000e+00, 5.000000e-01
  br label %join
join:
  %p = phi double [ %x, %a ], [ %y, %b ]
  %big = fcmp ogt double %p, 1.000000e+00
  br i1 %big, label %yes, label %no
yes:
  %i = fptosi double %p to i32
  ret i32 %i
no:
  ret i32 -1
}

; A select on a known condition picks one double; `fneg` flips its sign.
define i32 @select_known(double %unknown) {
entry:
  %one = fcmp oeq double 2.000000e+00, 2.000000e+00
  %s = select i1 %one, double 4.000000e+00, double %unknown
  %n = fneg double %s
  %half = fdiv double %n, 8.000000e+00
  %i = fptosi double %half to i32
  ret i32 %i
}

; A loop whose double never changes (adding 0.0 to 2.0): the exit test is decided.
define i32 @loop(i32 %n) {
entry:
  br label %head
head:
  %x = phi double [ 2.000000e+00, %entry ], [ %x2, %body ]
  %k = phi i32 [ 0, %entry ], [ %k2, %body ]
  %small = fcmp olt double %x, 1.000000e+00
  br i1 %small, label %never, label %body
body:
  %x2 = fadd double %x, 0.000000e+00
  %k2 = add i32 %k, 1
  %done = icmp sge i32 %k2, %n
  br i1 %done, label %exit, label %head
never:
  ret i32 -7
exit:
  %i = fptosi double %x2 to i32
  ret i32 %i
}

; Loads of constant globals: doubles of a table, a float of a struct, a zero.
define i64 @loads() {
entry:
  %a = load double, ptr getelementptr ([4 x double], ptr @table, i64 0, i64 1)
  %b = load double, ptr getelementptr ([4 x double], ptr @table, i64 0, i64 2)
  %inf = load double, ptr getelementptr ([4 x double], ptr @table, i64 0, i64 3)
  %f = load float, ptr getelementptr ({ float, float }, ptr @floats, i64 0, i32 1)
  %z = load double, ptr @zeros
  %ai = fptosi double %a to i64
  %negzero = fcmp oeq double %b, %z
  %bigger = fcmp ogt double %inf, 1.000000e+300
  %fd = fpext float %f to double
  %fexact = fcmp oeq double %fd, 1.000000e-01
  %s1 = zext i1 %negzero to i64
  %s2 = zext i1 %bigger to i64
  %s3 = zext i1 %fexact to i64
  %t1 = add i64 %ai, %s1
  %t2 = shl i64 %s2, 4
  %t3 = shl i64 %s3, 8
  %t4 = add i64 %t1, %t2
  %t5 = add i64 %t4, %t3
  ret i64 %t5
}

; Single precision through a φ: 0.1f + 0.2f rounds to exactly 0.3f (it does not in double).
define i32 @single(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %p = phi float [ 0x3FB99999A0000000, %a ], [ 0x3FB99999A0000000, %b ]
  %s = fadd float %p, 0x3FC99999A0000000
  %eq = fcmp oeq float %s, 0x3FD3333340000000
  %r = zext i1 %eq to i32
  ret i32 %r
}

; Conversions of values that flow: `sitofp` of a φ of integers, `uitofp` of an unsigned
; maximum, a conversion out of range (poison), and `frem`.
define i64 @conversions(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %k = phi i32 [ -3, %a ], [ -3, %b ]
  %big = phi i64 [ -1, %a ], [ -1, %b ]
  %d = sitofp i32 %k to double
  %m = frem double %d, 2.000000e+00
  %mi = fptosi double %m to i64
  %u = uitofp i64 %big to double
  %ugt = fcmp ogt double %u, 1.800000e+19
  %ui = zext i1 %ugt to i64
  %sum = add i64 %mi, %ui
  ret i64 %sum
}

; Different doubles from the two arms: nothing is known.
define i32 @phi_of_different(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %p = phi double [ 1.000000e+00, %a ], [ 2.000000e+00, %b ]
  %i = fptosi double %p to i32
  ret i32 %i
}

; A table of doubles read at an index the analysis knows (a φ of two equal indices).
define i32 @table_index(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %k = phi i64 [ 1, %a ], [ 1, %b ]
  %p = getelementptr [4 x double], ptr @table, i64 0, i64 %k
  %v = load double, ptr %p
  %i = fptosi double %v to i32
  ret i32 %i
}

; `fabs` and `copysign` of values that flow: |-2.5| is 2.5, and 2.5 with the sign of -0.0 is
; -2.5, whose `fptosi` is -2.
define i32 @sign_bits(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %x = phi double [ -2.500000e+00, %a ], [ -2.500000e+00, %b ]
  %abs = call double @llvm.fabs.f64(double %x)
  %neg = call double @llvm.copysign.f64(double %abs, double -0.000000e+00)
  %f = fptrunc double %neg to float
  %absf = call float @llvm.fabs.f32(float %f)
  %i = fptosi double %neg to i32
  %j = fptosi float %absf to i32
  %s = add i32 %i, %j
  %r = mul i32 %s, 10
  %t = add i32 %r, %i
  ret i32 %t
}

declare double @llvm.fabs.f64(double)
declare float @llvm.fabs.f32(float)
declare double @llvm.copysign.f64(double, double)

; Bits read as floats and floats read as bits, through φs: 0x40490FDB is pi in single
; precision (above 3.0, `fptosi` 3), whose double has the bits 0x400921FB60000000.
define i64 @bitcasts(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %k = phi i32 [ 1078530011, %a ], [ 1078530011, %b ]
  %l = phi i64 [ 4607182418800017408, %a ], [ 4607182418800017408, %b ]
  %f = bitcast i32 %k to float
  %gt = fcmp ogt float %f, 3.000000e+00
  %i = fptosi float %f to i64
  %d = fpext float %f to double
  %back = bitcast double %d to i64
  %fb = bitcast float %f to i32
  %one = bitcast i64 %l to double
  %two = fadd double %one, %one
  %ti = fptosi double %two to i64
  %fb64 = sext i32 %fb to i64
  %x = xor i64 %back, %fb64
  %y = add i64 %x, %i
  %z = add i64 %y, %ti
  ret i64 %z
}

; Square roots and rounding of values that flow: sqrt 6.25 is 2.5, sqrt of 2 in single
; precision is 0x3FF6A09E60000000; -2.5 rounds down to -3, up to -2, toward zero to -2, away
; from zero to -3, and to even to -2.
define i64 @roots_and_rounding(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %x = phi double [ 6.250000e+00, %a ], [ 6.250000e+00, %b ]
  %y = phi double [ -2.500000e+00, %a ], [ -2.500000e+00, %b ]
  %two = phi float [ 2.000000e+00, %a ], [ 2.000000e+00, %b ]
  %r = call double @llvm.sqrt.f64(double %x)
  %rf = call float @llvm.sqrt.f32(float %two)
  %rfb = bitcast float %rf to i32
  %fl = call double @llvm.floor.f64(double %y)
  %ce = call double @llvm.ceil.f64(double %y)
  %tr = call double @llvm.trunc.f64(double %y)
  %ro = call double @llvm.round.f64(double %y)
  %re = call double @llvm.rint.f64(double %y)
  %ne = call double @llvm.nearbyint.f64(double %y)
  %sum1 = fadd double %fl, %ce
  %sum2 = fadd double %sum1, %tr
  %sum3 = fadd double %sum2, %ro
  %sum4 = fadd double %sum3, %re
  %sum5 = fadd double %sum4, %ne
  %sum6 = fmul double %sum5, %r
  %i = fptosi double %sum6 to i64
  %bits = sext i32 %rfb to i64
  %out = add i64 %i, %bits
  ret i64 %out
}

declare double @llvm.sqrt.f64(double)
declare float @llvm.sqrt.f32(float)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.rint.f64(double)
declare double @llvm.nearbyint.f64(double)
