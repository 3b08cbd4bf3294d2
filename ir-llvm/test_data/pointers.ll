; Pointer constants: each function returns (or compares) addresses absinthe's `sccp-ranges-dom`
; must know as LLVM's SCCP does; the comments give the value.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"

@msg = private unnamed_addr constant [6 x i8] c"hello\00"
@other = private unnamed_addr constant [3 x i8] c"ok\00"
@pair = internal constant { i32, [4 x i16] } { i32 1, [4 x i16] [i16 1, i16 2, i16 3, i16 4] }
@table = internal constant [3 x ptr] [ptr @msg, ptr getelementptr inbounds ([6 x i8], ptr @msg, i64 0, i64 2), ptr null]
@weak = extern_weak global i32

define internal i32 @first(i32 %x) {
entry:
  ret i32 %x
}

define internal i32 @second(i32 %x) {
entry:
  %y = add i32 %x, 1
  ret i32 %y
}

; A getelementptr instruction on a global with constant indices: @msg+3.
define ptr @gep_of_global() {
entry:
  %p = getelementptr inbounds [6 x i8], ptr @msg, i64 0, i64 3
  ret ptr %p
}

; Struct fields and array elements: @pair+4+2*2 = @pair+8.
define ptr @struct_field() {
entry:
  %p = getelementptr inbounds { i32, [4 x i16] }, ptr @pair, i64 0, i32 1, i64 2
  ret ptr %p
}

; A select between two functions on a condition SCCP decides: @second.
define i32 @function_pointer(i32 %x) {
entry:
  %c = icmp eq i32 1, 2
  %f = select i1 %c, ptr @first, ptr @second
  %r = call i32 %f(i32 %x)
  ret i32 %r
}

; Distinct globals differ; a global is not null; two addresses into one global differ by
; the offsets: 0, 1, 5.
define i64 @compare_addresses() {
entry:
  %same = icmp eq ptr @msg, @other
  %z = zext i1 %same to i64
  %nonnull = icmp ne ptr @msg, null
  %n = zext i1 %nonnull to i64
  %end = getelementptr inbounds [6 x i8], ptr @msg, i64 0, i64 5
  %a = ptrtoint ptr %end to i64
  %b = ptrtoint ptr @msg to i64
  %d = sub i64 %a, %b
  %s = add i64 %z, %n
  %t = add i64 %s, %d
  ret i64 %t
}

; Loads from a constant table of pointers: @msg+2, then null.
define ptr @table_of_pointers() {
entry:
  %p = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @table, i64 0, i64 1)
  ret ptr %p
}

define i1 @table_null() {
entry:
  %p = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @table, i64 0, i64 2)
  %c = icmp eq ptr %p, null
  ret i1 %c
}

; The same global from both edges is that global; two different ones are neither.
define i1 @phis(i1 %c) {
entry:
  br i1 %c, label %left, label %right
left:
  br label %join
right:
  br label %join
join:
  %same = phi ptr [ @msg, %left ], [ @msg, %right ]
  %either = phi ptr [ @msg, %left ], [ @other, %right ]
  %is_msg = icmp eq ptr %same, @msg
  %maybe = icmp eq ptr %either, @msg
  %r = and i1 %is_msg, %maybe
  ret i1 %r
}

; An extern_weak global may be null: nothing is known.
define i1 @weak_may_be_null() {
entry:
  %c = icmp eq ptr @weak, null
  ret i1 %c
}

@codes = internal constant [4 x i8] c"\05\07\09\0B"

; A table read at an index only the analysis knows (2, after a branch): the entry 9, and the
; address @codes+2 of the read.
define i32 @table_at_known_index(i64 %n) {
entry:
  %c = icmp eq i64 %n, 2
  br i1 %c, label %known, label %other
known:
  %p = getelementptr inbounds [4 x i8], ptr @codes, i64 0, i64 %n
  %v = load i8, ptr %p
  %w = zext i8 %v to i32
  ret i32 %w
other:
  ret i32 0
}

; At an index in [0, 1]: 5 or 7, so the comparison with 9 is false.
define i1 @table_at_range(i64 %n) {
entry:
  %i = and i64 %n, 1
  %p = getelementptr inbounds [4 x i8], ptr @codes, i64 0, i64 %i
  %v = load i8, ptr %p
  %c = icmp eq i8 %v, 9
  ret i1 %c
}
