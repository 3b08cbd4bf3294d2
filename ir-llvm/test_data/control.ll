; Control flow: branches on constants, switches, φs with undef, unknown values.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

@table = internal constant [4 x i32] [i32 3, i32 1, i32 4, i32 1]
@pair = private constant { i16, i32 } { i16 -2, i32 70000 }
@endian = internal constant { i32 } { i32 1 }
@counter = global i32 0

; The else branch is dead; the φ sees only 1.
define i32 @dead_branch(i32 %x) {
entry:
  %c = icmp eq i32 2, 2
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  %y = add i32 %x, 1
  br label %join
join:
  %v = phi i32 [ 1, %then ], [ %y, %else ]
  ret i32 %v
}

; A switch on a constant takes one case; the others are dead.
define i32 @switch_const() {
entry:
  %k = add i32 1, 1
  switch i32 %k, label %default [
    i32 1, label %one
    i32 2, label %two
  ]
one:
  ret i32 10
two:
  ret i32 20
default:
  ret i32 30
}

; An uninitialised variable merged with a constant: undef may be anything, so 5.
define i32 @undef_phi(i1 %p) {
entry:
  br i1 %p, label %set, label %join
set:
  br label %join
join:
  %v = phi i32 [ 5, %set ], [ undef, %entry ]
  ret i32 %v
}

; Loads from constant globals fold; loads from a mutable one do not. The union is read
; through an i8 (little-endian: the low byte).
define i32 @constant_loads() {
entry:
  %a = load i32, ptr getelementptr inbounds ([4 x i32], ptr @table, i64 0, i64 2)
  %b = load i16, ptr @pair
  %c = load i32, ptr getelementptr inbounds ({ i16, i32 }, ptr @pair, i32 0, i32 1)
  %d = load i8, ptr @endian
  %e = load i32, ptr @counter
  %s = sext i16 %b to i32
  %z = zext i8 %d to i32
  %t = add i32 %a, %s
  %u = add i32 %t, %c
  %v = add i32 %u, %z
  %w = add i32 %v, %e
  ret i32 %v
}

; Two unknown loads compared: refining either must not make other unknowns constant.
define i32 @unknowns(ptr %p, ptr %q) {
entry:
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %c = icmp eq i32 %a, 7
  br i1 %c, label %seven, label %other
seven:
  %d = add i32 %b, 0
  ret i32 %d
other:
  ret i32 0
}

; A loop: the counter is not constant, the flag stays 1.
define i32 @loop(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i2, %body ]
  %flag = phi i32 [ 1, %entry ], [ %flag, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %i2 = add nsw i32 %i, 1
  br label %head
exit:
  ret i32 %flag
}

; Branching on one unknown value must not make another one known: every load stands for a
; different unknown value, so %d and %e stay unknown and both x and y are reachable.
define i32 @unknowns_stay_unknown(ptr %p, ptr %q) {
entry:
  %a = load i32, ptr %p
  %c = icmp eq i32 %a, 0
  br i1 %c, label %zero, label %nonzero
zero:
  %b = load i32, ptr %q
  %d = icmp eq i32 %b, 0
  %e = zext i1 %d to i32
  br i1 %d, label %x, label %y
nonzero:
  %f = call i32 @opaque()
  %g = icmp slt i32 %f, 0
  br i1 %g, label %x, label %y
x:
  %r = phi i32 [ %e, %zero ], [ 5, %nonzero ]
  ret i32 %r
y:
  ret i32 2
}

declare i32 @opaque()

; A loaded value that a branch tests is refined on each edge, so its other uses see it: %b is
; 6, whether or not memory operations are kept.
define i32 @tested_load(ptr %p) {
entry:
  %a = load i32, ptr %p
  %w = sext i32 %a to i64
  %c = icmp eq i64 %w, 5
  br i1 %c, label %five, label %other
five:
  %b = add i32 %a, 1
  ret i32 %b
other:
  ret i32 0
}
