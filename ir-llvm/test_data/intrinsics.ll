; Integer intrinsics, first-class structs and `!range` metadata: each function computes values
; absinthe's `sccp-ranges-dom` must know as LLVM's SCCP does; the comments give them.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

declare { i32, i1 } @llvm.sadd.with.overflow.i32(i32, i32)
declare { i8, i1 } @llvm.uadd.with.overflow.i8(i8, i8)
declare { i16, i1 } @llvm.usub.with.overflow.i16(i16, i16)
declare { i16, i1 } @llvm.ssub.with.overflow.i16(i16, i16)
declare { i32, i1 } @llvm.smul.with.overflow.i32(i32, i32)
declare { i32, i1 } @llvm.umul.with.overflow.i32(i32, i32)
declare { i64, i1 } @llvm.sadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.uadd.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.ssub.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i48, i1 } @llvm.umul.with.overflow.i48(i48, i48)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i8 @llvm.usub.sat.i8(i8, i8)
declare i8 @llvm.sadd.sat.i8(i8, i8)
declare i8 @llvm.ssub.sat.i8(i8, i8)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i16 @llvm.cttz.i16(i16, i1)
declare i64 @llvm.cttz.i64(i64, i1)
declare i32 @llvm.bswap.i32(i32)
declare i16 @llvm.bswap.i16(i16)
declare i64 @llvm.bswap.i64(i64)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @opaque()

; Overflowing: -2147483648 and 1.
define i1 @sadd_overflows() {
entry:
  %r = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 2147483647, i32 1)
  %sum = extractvalue { i32, i1 } %r, 0
  %ovf = extractvalue { i32, i1 } %r, 1
  %neg = icmp slt i32 %sum, 0
  %both = and i1 %neg, %ovf
  ret i1 %both
}

; 200 + 100 in i8: 44, carry 1; 1 - 2 in i16: 65535, borrow 1; -32768 - 1 in i16: overflow.
define i32 @unsigned_overflows() {
entry:
  %a = call { i8, i1 } @llvm.uadd.with.overflow.i8(i8 200, i8 100)
  %a0 = extractvalue { i8, i1 } %a, 0
  %a1 = extractvalue { i8, i1 } %a, 1
  %b = call { i16, i1 } @llvm.usub.with.overflow.i16(i16 1, i16 2)
  %b0 = extractvalue { i16, i1 } %b, 0
  %b1 = extractvalue { i16, i1 } %b, 1
  %c = call { i16, i1 } @llvm.ssub.with.overflow.i16(i16 -32768, i16 1)
  %c1 = extractvalue { i16, i1 } %c, 1
  %a32 = zext i8 %a0 to i32
  %b32 = zext i16 %b0 to i32
  %s = add i32 %a32, %b32
  %f1 = zext i1 %a1 to i32
  %f2 = zext i1 %b1 to i32
  %f3 = zext i1 %c1 to i32
  %t1 = add i32 %s, %f1
  %t2 = add i32 %t1, %f2
  %t3 = add i32 %t2, %f3
  ret i32 %t3
}

; Products: 65536 * 65536 overflows i32 (result 0); 3 * 5 does not (15); 64-bit and 48-bit ones.
define i32 @products() {
entry:
  %a = call { i32, i1 } @llvm.smul.with.overflow.i32(i32 65536, i32 65536)
  %a0 = extractvalue { i32, i1 } %a, 0
  %a1 = extractvalue { i32, i1 } %a, 1
  %b = call { i32, i1 } @llvm.umul.with.overflow.i32(i32 3, i32 5)
  %b0 = extractvalue { i32, i1 } %b, 0
  %b1 = extractvalue { i32, i1 } %b, 1
  %c = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 4294967296, i64 4294967296)
  %c1 = extractvalue { i64, i1 } %c, 1
  %d = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 -1, i64 -9223372036854775808)
  %d1 = extractvalue { i64, i1 } %d, 1
  %e = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 -1, i64 2)
  %e1 = extractvalue { i64, i1 } %e, 1
  %f = call { i48, i1 } @llvm.umul.with.overflow.i48(i48 16777216, i48 16777215)
  %f1 = extractvalue { i48, i1 } %f, 1
  %g = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 0, i64 7)
  %g1 = extractvalue { i64, i1 } %g, 1
  %x1 = zext i1 %a1 to i32
  %x2 = zext i1 %b1 to i32
  %x3 = zext i1 %c1 to i32
  %x4 = zext i1 %d1 to i32
  %x5 = zext i1 %e1 to i32
  %x6 = zext i1 %f1 to i32
  %x7 = zext i1 %g1 to i32
  %s1 = add i32 %a0, %b0
  %s2 = add i32 %s1, %x1
  %s3 = add i32 %s2, %x2
  %s4 = add i32 %s3, %x3
  %s5 = add i32 %s4, %x4
  %s6 = add i32 %s5, %x5
  %s7 = add i32 %s6, %x6
  %s8 = add i32 %s7, %x7
  ret i32 %s8
}

; 64-bit additions and subtractions at the edges.
define i32 @wide_overflows() {
entry:
  %a = call { i64, i1 } @llvm.sadd.with.overflow.i64(i64 9223372036854775807, i64 1)
  %a1 = extractvalue { i64, i1 } %a, 1
  %b = call { i64, i1 } @llvm.uadd.with.overflow.i64(i64 -1, i64 1)
  %b0 = extractvalue { i64, i1 } %b, 0
  %b1 = extractvalue { i64, i1 } %b, 1
  %c = call { i64, i1 } @llvm.ssub.with.overflow.i64(i64 -9223372036854775808, i64 1)
  %c1 = extractvalue { i64, i1 } %c, 1
  %d = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 5, i64 3)
  %d0 = extractvalue { i64, i1 } %d, 0
  %d1 = extractvalue { i64, i1 } %d, 1
  %x1 = zext i1 %a1 to i32
  %x2 = zext i1 %b1 to i32
  %x3 = zext i1 %c1 to i32
  %x4 = zext i1 %d1 to i32
  %w = add i64 %b0, %d0
  %w32 = trunc i64 %w to i32
  %s1 = add i32 %w32, %x1
  %s2 = add i32 %s1, %x2
  %s3 = add i32 %s2, %x3
  %s4 = add i32 %s3, %x4
  ret i32 %s4
}

; Overflow of a value only SCCP knows: the φ is 7 on both edges, so 7 + 1 does not overflow.
define i1 @overflow_through_phi(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %x = phi i32 [ 7, %a ], [ 7, %b ]
  %r = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %x, i32 1)
  %ovf = extractvalue { i32, i1 } %r, 1
  ret i1 %ovf
}

; Saturating arithmetic in i8: 255, 0, 127, -128.
define i32 @saturating() {
entry:
  %a = call i8 @llvm.uadd.sat.i8(i8 200, i8 100)
  %b = call i8 @llvm.usub.sat.i8(i8 1, i8 2)
  %c = call i8 @llvm.sadd.sat.i8(i8 100, i8 100)
  %d = call i8 @llvm.ssub.sat.i8(i8 -100, i8 100)
  %e = call i8 @llvm.uadd.sat.i8(i8 1, i8 2)
  %a32 = zext i8 %a to i32
  %b32 = zext i8 %b to i32
  %c32 = sext i8 %c to i32
  %d32 = sext i8 %d to i32
  %e32 = sext i8 %e to i32
  %s1 = add i32 %a32, %b32
  %s2 = add i32 %s1, %c32
  %s3 = add i32 %s2, %d32
  %s4 = add i32 %s3, %e32
  ret i32 %s4
}

; Bit counts: ctpop(0xF0F0) = 8, ctpop(-1 as i64) = 64, ctlz(1) = 31, ctlz(0) = 64 (not
; poison: the flag is false), cttz(8 as i16) = 3, cttz(0 as i64) = 64.
define i64 @bit_counts() {
entry:
  %a = call i32 @llvm.ctpop.i32(i32 61680)
  %b = call i64 @llvm.ctpop.i64(i64 -1)
  %c = call i32 @llvm.ctlz.i32(i32 1, i1 false)
  %d = call i64 @llvm.ctlz.i64(i64 0, i1 false)
  %e = call i16 @llvm.cttz.i16(i16 8, i1 false)
  %f = call i64 @llvm.cttz.i64(i64 0, i1 false)
  %a64 = zext i32 %a to i64
  %c64 = zext i32 %c to i64
  %e64 = zext i16 %e to i64
  %s1 = add i64 %a64, %b
  %s2 = add i64 %s1, %c64
  %s3 = add i64 %s2, %d
  %s4 = add i64 %s3, %e64
  %s5 = add i64 %s4, %f
  ret i64 %s5
}

; Byte swaps: 0x12345678 → 0x78563412, 0x00ff → 0xff00 (-256 as i16), and a 64-bit one.
define i64 @byte_swaps() {
entry:
  %a = call i32 @llvm.bswap.i32(i32 305419896)
  %b = call i16 @llvm.bswap.i16(i16 255)
  %c = call i64 @llvm.bswap.i64(i64 1)
  %a64 = sext i32 %a to i64
  %b64 = sext i16 %b to i64
  %s1 = add i64 %a64, %b64
  %s2 = add i64 %s1, %c
  ret i64 %s2
}

; Min, max and abs on constants: 7, 3, 5.
define i32 @min_max_abs() {
entry:
  %a = call i32 @llvm.smax.i32(i32 -4, i32 7)
  %b = call i32 @llvm.umin.i32(i32 -4, i32 3)
  %c = call i32 @llvm.abs.i32(i32 -5, i1 false)
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  ret i32 %s2
}

; Structs built with insertvalue and read back with extractvalue: 42 and 9; a constant struct's
; field: 3; a zeroinitializer's: 0.
define i32 @structs(i32 %unknown) {
entry:
  %s0 = insertvalue { i32, i32 } undef, i32 42, 0
  %s1 = insertvalue { i32, i32 } %s0, i32 %unknown, 1
  %x = extractvalue { i32, i32 } %s1, 0
  %n0 = insertvalue { i32, { i32, i32 } } undef, { i32, i32 } { i32 8, i32 9 }, 1
  %y = extractvalue { i32, { i32, i32 } } %n0, 1, 1
  %z = extractvalue { i32, [2 x i32] } { i32 1, [2 x i32] [i32 2, i32 3] }, 1, 1
  %w = extractvalue { i32, i32 } zeroinitializer, 1
  %u = extractvalue { i32, i32 } %s1, 1
  %s2 = add i32 %x, %y
  %s3 = add i32 %s2, %z
  %s4 = add i32 %s3, %w
  %s5 = add i32 %s4, %u
  ret i32 %s4
}

; `!range` on a load and on a call: both comparisons are decided (true).
define i1 @ranges(ptr %p) {
entry:
  %x = load i32, ptr %p, !range !0
  %small = icmp ult i32 %x, 10
  %y = call i32 @opaque(), !range !1
  %negative = icmp slt i32 %y, 0
  %both = and i1 %small, %negative
  ret i1 %both
}

; A wrapping range [-3, 2) of i8, and one of two pairs: `x + 3 < 5` and `y > 0` are true.
define i1 @wrapping_ranges(ptr %p, ptr %q) {
entry:
  %x = load i8, ptr %p, !range !2
  %x3 = add i8 %x, 3
  %in = icmp ult i8 %x3, 5
  %y = load i16, ptr %q, !range !3
  %positive = icmp sgt i16 %y, 0
  %both = and i1 %in, %positive
  ret i1 %both
}

; `!nonnull` on a loaded pointer: comparing it with null is decided (both tests false, so
; the result is 0). A `nonnull` argument decides nothing for LLVM 15's SCCP (nor for absinthe).
define i32 @nonnull(ptr %p, ptr nonnull %a) {
entry:
  %x = load ptr, ptr %p, !nonnull !4
  %eq = icmp eq ptr %x, null
  %ne = icmp ne ptr null, %x
  %arg = icmp eq ptr %a, null
  %e = zext i1 %eq to i32
  %n = zext i1 %ne to i32
  %sum = add i32 %e, %n
  %flip = sub i32 1, %sum
  ret i32 %flip
}

!0 = !{i32 0, i32 10}
!1 = !{i32 -100, i32 -1}
!2 = !{i8 -3, i8 2}
!3 = !{i16 1, i16 5, i16 10, i16 20}
!4 = !{}
