; Fixed-width integer semantics: each function returns a value absinthe must fold exactly as
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
; LLVM does (the comments give the value).

; 100 + 100 wraps to -56 in i8 (no nsw).
define i8 @add_wraps() {
entry:
  %a = add i8 100, 0
  %b = add i8 %a, 100
  ret i8 %b
}

; With nsw the sum is kept unwrapped (overflow would be poison).
define i32 @add_nsw(i32 %x) {
entry:
  %a = add nsw i32 7, 5
  %b = mul nsw i32 %a, 3
  ret i32 %b
}

; -1 as i8 is 255 unsigned: 255 / 16 = 15, 255 % 16 = 15, 255 >> 4 = 15.
define i8 @unsigned_i8() {
entry:
  %m = add i8 0, -1
  %d = udiv i8 %m, 16
  %r = urem i8 %m, 16
  %s = lshr i8 %m, 4
  %t = add i8 %d, %r
  %u = add i8 %t, %s
  ret i8 %u
}

; -1 ult 1 is false; -1 slt 1 is true.
define i1 @compare_signs() {
entry:
  %m = sub i32 0, 1
  %u = icmp ult i32 %m, 1
  %s = icmp slt i32 %m, 1
  %both = and i1 %u, %s
  ret i1 %both
}

; zext of i8 -1 is 255; sext is -1; trunc of 0x1ff to i8 is -1; zext of i1 true is 1, sext -1.
define i64 @casts() {
entry:
  %m = add i8 0, -1
  %z = zext i8 %m to i32
  %s = sext i8 %m to i32
  %w = add i32 511, 0
  %t = trunc i32 %w to i8
  %c = icmp eq i8 %t, %m
  %cz = zext i1 %c to i64
  %cs = sext i1 %c to i64
  %sum = add i32 %z, %s
  %wide = sext i32 %sum to i64
  %r = add i64 %wide, %cz
  %r2 = add i64 %r, %cs
  ret i64 %r2
}

; select on a known condition, and on an unknown one with equal arms.
define i32 @selects(i1 %p) {
entry:
  %c = icmp sgt i32 3, 2
  %a = select i1 %c, i32 10, i32 20
  %b = select i1 %p, i32 %a, i32 10
  %m = call i32 @llvm.smax.i32(i32 %b, i32 4)
  %n = call i32 @llvm.umin.i32(i32 %m, i32 -1)
  ret i32 %n
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)

; Ranges decide comparisons that constants cannot: (x & 7) ult 8, and a shifted value is
; non-negative.
define i1 @ranges(i32 %x, i64 %y) {
entry:
  %r = and i32 %x, 7
  %c = icmp ult i32 %r, 8
  %s = lshr i64 %y, 11
  %n = icmp slt i64 %s, 0
  %z = zext i1 %n to i32
  %both = icmp sgt i32 %z, 0
  %res = xor i1 %c, %both
  ret i1 %res
}
