; Floating-point constants: the lowering folds trees of float constants with IEEE semantics
; (round to nearest, ties to even) and lowers what they decide as integers; the comments give
; the values LLVM's SCCP finds.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

; 0.1 + 0.2 is not 0.3 in double (0 for oeq, 1 for ogt), but is in float after rounding.
define i32 @sums() {
entry:
  %d = fadd double 1.000000e-01, 2.000000e-01
  %deq = fcmp oeq double %d, 3.000000e-01
  %dgt = fcmp ogt double %d, 3.000000e-01
  %f = fadd float 0x3FB99999A0000000, 0x3FC99999A0000000
  %feq = fcmp oeq float %f, 0x3FD3333340000000
  %a = zext i1 %deq to i32
  %b = zext i1 %dgt to i32
  %c = zext i1 %feq to i32
  %ab = shl i32 %b, 1
  %ac = shl i32 %c, 2
  %s1 = or i32 %a, %ab
  %s2 = or i32 %s1, %ac
  ret i32 %s2
}

; NaN: ordered comparisons are false, unordered ones true; `fcmp uno` of a NaN is 1.
define i32 @nans() {
entry:
  %nan = fdiv double 0.000000e+00, 0.000000e+00
  %oeq = fcmp oeq double %nan, %nan
  %une = fcmp une double %nan, %nan
  %uno = fcmp uno double %nan, 1.000000e+00
  %ord = fcmp ord double 1.000000e+00, 2.000000e+00
  %a = zext i1 %oeq to i32
  %b = zext i1 %une to i32
  %c = zext i1 %uno to i32
  %d = zext i1 %ord to i32
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  ret i32 %s3
}

; Conversions: sitofp, fptosi (truncating toward zero: -2), fptoui, fpext, fptrunc, and the bits
; of 1.0 (0x3FF0000000000000 and 0x3F800000).
define i64 @conversions() {
entry:
  %x = sitofp i32 -5 to double
  %half = fmul double %x, 5.000000e-01
  %i = fptosi double %half to i32
  %u = uitofp i8 -1 to float
  %back = fptoui float %u to i16
  %wide = fpext float 1.500000e+00 to double
  %narrow = fptrunc double %wide to float
  %cmp = fcmp oeq float %narrow, 1.500000e+00
  %bits = bitcast double 1.000000e+00 to i64
  %fbits = bitcast float 1.000000e+00 to i32
  %i64 = sext i32 %i to i64
  %b64 = zext i16 %back to i64
  %f64 = zext i32 %fbits to i64
  %c64 = zext i1 %cmp to i64
  %s1 = add i64 %i64, %b64
  %s2 = add i64 %s1, %bits
  %s3 = add i64 %s2, %f64
  %s4 = add i64 %s3, %c64
  ret i64 %s4
}

; Out of range: fptoui of -1.5 and fptosi of 1e10 to i32 are poison (undefined).
define i32 @out_of_range() {
entry:
  %a = fptoui double -1.500000e+00 to i32
  %b = fptosi double 1.000000e+10 to i32
  %s = add i32 %a, %b
  ret i32 %s
}

; A float LLVM's SCCP cannot know (an argument) decides nothing.
define i1 @unknown(double %x) {
entry:
  %c = fcmp olt double %x, 1.000000e+00
  ret i1 %c
}
