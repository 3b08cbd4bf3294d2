; ModuleID = 'relational.c' (the C source beside this file; see its first comment for the command)
source_filename = "relational.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @fill(i32 noundef %n) #0 {
entry:
  %i = zext i32 %n to i64
  %i1 = call ptr @llvm.stacksave()
  %vla = alloca i32, i64 %i, align 16
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %s.0 = phi i32 [ 0, %entry ], [ %add, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %vla, i64 %idxprom
  store i32 %i.0, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %i.0 to i64
  %arrayidx2 = getelementptr inbounds i32, ptr %vla, i64 %idxprom1
  %i2 = load i32, ptr %arrayidx2, align 4
  %add = add nsw i32 %s.0, %i2
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %inc = add nsw i32 %i.0, 1
  br label %for.cond, !llvm.loop !6

for.end:                                          ; preds = %for.cond
  call void @llvm.stackrestore(ptr %i1)
  ret i32 %s.0
}

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare ptr @llvm.stacksave() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare void @llvm.stackrestore(ptr) #1

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @copy_increment(i32 noundef %y) #0 {
entry:
  %inc = add nsw i32 %y, 1
  %cmp = icmp sgt i32 %inc, %y
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  br label %return

if.end:                                           ; preds = %entry
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ 1, %if.then ], [ 2, %if.end ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @copy_increment_wraps(i32 noundef %y) #0 {
entry:
  %inc = add i32 %y, 1
  %cmp = icmp ugt i32 %inc, %y
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  br label %return

if.end:                                           ; preds = %entry
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ 1, %if.then ], [ 2, %if.end ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @copy_increment_bounded(i32 noundef %y) #0 {
entry:
  %cmp = icmp uge i32 %y, 1000
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  br label %return

if.end:                                           ; preds = %entry
  %inc = add i32 %y, 1
  %cmp1 = icmp ugt i32 %inc, %y
  br i1 %cmp1, label %if.then2, label %if.end3

if.then2:                                         ; preds = %if.end
  br label %return

if.end3:                                          ; preds = %if.end
  br label %return

return:                                           ; preds = %if.end3, %if.then2, %if.then
  %retval.0 = phi i32 [ 0, %if.then ], [ 1, %if.then2 ], [ 2, %if.end3 ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @fill_unsigned(i32 noundef %n) #0 {
entry:
  %cmp = icmp ugt i32 %n, 100
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  br label %return

if.end:                                           ; preds = %entry
  %i = zext i32 %n to i64
  %i1 = call ptr @llvm.stacksave()
  %vla = alloca i32, i64 %i, align 16
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %if.end
  %s.0 = phi i32 [ 0, %if.end ], [ %add, %for.inc ]
  %i.0 = phi i32 [ 0, %if.end ], [ %inc, %for.inc ]
  %cmp1 = icmp ult i32 %i.0, %n
  br i1 %cmp1, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = zext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds i32, ptr %vla, i64 %idxprom
  store i32 %i.0, ptr %arrayidx, align 4
  %idxprom2 = zext i32 %i.0 to i64
  %arrayidx3 = getelementptr inbounds i32, ptr %vla, i64 %idxprom2
  %i2 = load i32, ptr %arrayidx3, align 4
  %add = add i32 %s.0, %i2
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %inc = add i32 %i.0, 1
  br label %for.cond, !llvm.loop !8

for.end:                                          ; preds = %for.cond
  call void @llvm.stackrestore(ptr %i1)
  br label %return

return:                                           ; preds = %for.end, %if.then
  %retval.0 = phi i32 [ 0, %if.then ], [ %s.0, %for.end ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @pairs(i32 noundef %n) #0 {
entry:
  %cmp = icmp slt i32 %n, 0
  br i1 %cmp, label %if.then, label %lor.lhs.false

lor.lhs.false:                                    ; preds = %entry
  %cmp1 = icmp sgt i32 %n, 1000
  br i1 %cmp1, label %if.then, label %if.end

if.then:                                          ; preds = %lor.lhs.false, %entry
  br label %return

if.end:                                           ; preds = %lor.lhs.false
  %add = add nsw i32 %n, 1
  %i = zext i32 %add to i64
  %i1 = call ptr @llvm.stacksave()
  %vla = alloca i32, i64 %i, align 16
  %arrayidx = getelementptr inbounds i32, ptr %vla, i64 0
  store i32 0, ptr %arrayidx, align 16
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %if.end
  %i.0 = phi i32 [ 0, %if.end ], [ %inc, %for.inc ]
  %cmp2 = icmp slt i32 %i.0, %n
  br i1 %cmp2, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %add3 = add nsw i32 %i.0, 1
  %idxprom = sext i32 %i.0 to i64
  %arrayidx4 = getelementptr inbounds i32, ptr %vla, i64 %idxprom
  %i2 = load i32, ptr %arrayidx4, align 4
  %add5 = add nsw i32 %i2, 1
  %idxprom6 = sext i32 %add3 to i64
  %arrayidx7 = getelementptr inbounds i32, ptr %vla, i64 %idxprom6
  store i32 %add5, ptr %arrayidx7, align 4
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %inc = add nsw i32 %i.0, 1
  br label %for.cond, !llvm.loop !9

for.end:                                          ; preds = %for.cond
  %idxprom8 = sext i32 %n to i64
  %arrayidx9 = getelementptr inbounds i32, ptr %vla, i64 %idxprom8
  %i3 = load i32, ptr %arrayidx9, align 4
  call void @llvm.stackrestore(ptr %i1)
  br label %return

return:                                           ; preds = %for.end, %if.then
  %retval.0 = phi i32 [ 0, %if.then ], [ %i3, %for.end ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @table(i32 noundef %k) #0 {
entry:
  %t = alloca [16 x i32], align 16
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, 16
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %mul = mul nsw i32 %i.0, %i.0
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds [16 x i32], ptr %t, i64 0, i64 %idxprom
  store i32 %mul, ptr %arrayidx, align 4
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %inc = add nsw i32 %i.0, 1
  br label %for.cond, !llvm.loop !10

for.end:                                          ; preds = %for.cond
  %cmp1 = icmp sge i32 %k, 0
  br i1 %cmp1, label %land.lhs.true, label %if.end

land.lhs.true:                                    ; preds = %for.end
  %cmp2 = icmp slt i32 %k, 16
  br i1 %cmp2, label %if.then, label %if.end

if.then:                                          ; preds = %land.lhs.true
  %idxprom3 = sext i32 %k to i64
  %arrayidx4 = getelementptr inbounds [16 x i32], ptr %t, i64 0, i64 %idxprom3
  %i = load i32, ptr %arrayidx4, align 4
  br label %return

if.end:                                           ; preds = %land.lhs.true, %for.end
  br label %return

return:                                           ; preds = %if.end, %if.then
  %retval.0 = phi i32 [ %i, %if.then ], [ -1, %if.end ]
  ret i32 %retval.0
}

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @two_loads(ptr noundef %p, ptr noundef %q) #0 {
entry:
  %i = load i32, ptr %p, align 4
  %cmp = icmp eq i32 %i, 5
  br i1 %cmp, label %if.then, label %if.end3

if.then:                                          ; preds = %entry
  %i1 = load i32, ptr %q, align 4
  %cmp1 = icmp eq i32 %i1, 7
  br i1 %cmp1, label %if.then2, label %if.end

if.then2:                                         ; preds = %if.then
  br label %return

if.end:                                           ; preds = %if.then
  br label %return

if.end3:                                          ; preds = %entry
  br label %return

return:                                           ; preds = %if.end3, %if.end, %if.then2
  %retval.0 = phi i32 [ 1, %if.then2 ], [ 2, %if.end ], [ 0, %if.end3 ]
  ret i32 %retval.0
}

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 15.0.6"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
!8 = distinct !{!8, !7}
!9 = distinct !{!9, !7}
!10 = distinct !{!10, !7}
