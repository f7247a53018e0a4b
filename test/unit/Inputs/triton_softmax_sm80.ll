; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @softmax(ptr addrspace(1) %0, ptr addrspace(1) %1, i32 %2, i32 %3, ptr addrspace(1) nofree readnone captures(none) %4, ptr addrspace(1) nofree readnone captures(none) %5) local_unnamed_addr #0 !dbg !4 {
  %7 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !13
  %9 = and i32 %8, 127, !dbg !13
  %10 = icmp slt i32 %9, %3, !dbg !14
  %11 = mul i32 %2, %7, !dbg !15
  %12 = sext i32 %11 to i64, !dbg !16
  %13 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %12, !dbg !16
  %14 = zext nneg i32 %9 to i64, !dbg !16
  %15 = getelementptr [4 x i8], ptr addrspace(1) %13, i64 %14, !dbg !16
  %16 = tail call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 -8388608, ptr addrspace(1) %15, i1 %10) #7, !dbg !17
  %17 = bitcast i32 %16 to float, !dbg !17
  %18 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %16, i32 16, i32 31), !dbg !18
  %19 = bitcast i32 %18 to float, !dbg !18
  %20 = tail call float @llvm.maxnum.f32(float %17, float %19), !dbg !23
  %21 = bitcast float %20 to i32, !dbg !18
  %22 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %21, i32 8, i32 31), !dbg !18
  %23 = bitcast i32 %22 to float, !dbg !18
  %24 = tail call float @llvm.maxnum.f32(float %20, float %23), !dbg !23
  %25 = bitcast float %24 to i32, !dbg !18
  %26 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %25, i32 4, i32 31), !dbg !18
  %27 = bitcast i32 %26 to float, !dbg !18
  %28 = tail call float @llvm.maxnum.f32(float %24, float %27), !dbg !23
  %29 = bitcast float %28 to i32, !dbg !18
  %30 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %29, i32 2, i32 31), !dbg !18
  %31 = bitcast i32 %30 to float, !dbg !18
  %32 = tail call float @llvm.maxnum.f32(float %28, float %31), !dbg !23
  %33 = bitcast float %32 to i32, !dbg !18
  %34 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %33, i32 1, i32 31), !dbg !18
  %35 = bitcast i32 %34 to float, !dbg !18
  %36 = tail call float @llvm.maxnum.f32(float %32, float %35), !dbg !23
  %37 = lshr i32 %8, 3, !dbg !18
  %38 = and i32 %37, 12, !dbg !18
  %39 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %38, !dbg !18
  store float %36, ptr addrspace(3) %39, align 4, !dbg !18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %40 = shl nuw nsw i32 %8, 2, !dbg !18
  %41 = and i32 %40, 12, !dbg !18
  %42 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %41, !dbg !18
  %43 = load i32, ptr addrspace(3) %42, align 4, !dbg !18
  %44 = bitcast i32 %43 to float, !dbg !18
  %45 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %43, i32 2, i32 31), !dbg !18
  %46 = bitcast i32 %45 to float, !dbg !18
  %47 = tail call float @llvm.maxnum.f32(float %44, float %46), !dbg !23
  %48 = bitcast float %47 to i32, !dbg !18
  %49 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %48, i32 1, i32 31), !dbg !18
  %50 = bitcast i32 %49 to float, !dbg !18
  %51 = tail call float @llvm.maxnum.f32(float %47, float %50), !dbg !23
  %52 = fsub float %17, %51, !dbg !24
  %53 = fmul float %52, 0x3FF7154760000000, !dbg !25
  %54 = tail call float @llvm.nvvm.ex2.approx.f32(float %53), !dbg !25
  %55 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %12, !dbg !26
  %56 = getelementptr [4 x i8], ptr addrspace(1) %55, i64 %14, !dbg !26
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !27
  %57 = bitcast float %54 to i32, !dbg !27
  %58 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %57, i32 16, i32 31), !dbg !27
  %59 = bitcast i32 %58 to float, !dbg !27
  %60 = fadd float %54, %59, !dbg !29
  %61 = bitcast float %60 to i32, !dbg !27
  %62 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %61, i32 8, i32 31), !dbg !27
  %63 = bitcast i32 %62 to float, !dbg !27
  %64 = fadd float %60, %63, !dbg !29
  %65 = bitcast float %64 to i32, !dbg !27
  %66 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %65, i32 4, i32 31), !dbg !27
  %67 = bitcast i32 %66 to float, !dbg !27
  %68 = fadd float %64, %67, !dbg !29
  %69 = bitcast float %68 to i32, !dbg !27
  %70 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %69, i32 2, i32 31), !dbg !27
  %71 = bitcast i32 %70 to float, !dbg !27
  %72 = fadd float %68, %71, !dbg !29
  %73 = bitcast float %72 to i32, !dbg !27
  %74 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %73, i32 1, i32 31), !dbg !27
  %75 = bitcast i32 %74 to float, !dbg !27
  %76 = fadd float %72, %75, !dbg !29
  store float %76, ptr addrspace(3) %39, align 4, !dbg !27
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !27
  %77 = load i32, ptr addrspace(3) %42, align 4, !dbg !27
  %78 = bitcast i32 %77 to float, !dbg !27
  %79 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %77, i32 2, i32 31), !dbg !27
  %80 = bitcast i32 %79 to float, !dbg !27
  %81 = fadd float %78, %80, !dbg !29
  %82 = bitcast float %81 to i32, !dbg !27
  %83 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %82, i32 1, i32 31), !dbg !27
  %84 = bitcast i32 %83 to float, !dbg !27
  %85 = fadd float %81, %84, !dbg !29
  %86 = tail call float @llvm.nvvm.div.full(float %54, float %85), !dbg !30
  %87 = bitcast float %86 to i32, !dbg !31
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %87, ptr addrspace(1) %56, i1 %10) #7, !dbg !31
  ret void, !dbg !32
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f32(float) #5

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #6

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #6 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #7 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "softmax", linkageName: "softmax", scope: !1, file: !1, line: 34, type: !5, scopeLine: 34, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{null, !7, !7, !9, !9, !10, !10}
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 1)
!8 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !11, size: 64, dwarfAddressSpace: 1)
!11 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!12 = !DILocation(line: 35, column: 11, scope: !4)
!13 = !DILocation(line: 36, column: 12, scope: !4)
!14 = !DILocation(line: 37, column: 9, scope: !4)
!15 = !DILocation(line: 38, column: 21, scope: !4)
!16 = !DILocation(line: 38, column: 17, scope: !4)
!17 = !DILocation(line: 38, column: 9, scope: !4)
!18 = !DILocation(line: 216, column: 16, scope: !19, inlinedAt: !21)
!19 = distinct !DILexicalBlockFile(scope: !4, file: !20, discriminator: 0)
!20 = !DIFile(filename: "standard.py", directory: "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/triton/language")
!21 = !DILocation(line: 39, column: 13, scope: !22)
!22 = distinct !DILexicalBlockFile(scope: !4, file: !1, discriminator: 0)
!23 = !DILocation(line: 196, column: 12, scope: !19, inlinedAt: !18)
!24 = !DILocation(line: 39, column: 9, scope: !4)
!25 = !DILocation(line: 40, column: 9, scope: !4)
!26 = !DILocation(line: 41, column: 14, scope: !4)
!27 = !DILocation(line: 314, column: 12, scope: !19, inlinedAt: !28)
!28 = !DILocation(line: 41, column: 43, scope: !22)
!29 = !DILocation(line: 287, column: 12, scope: !19, inlinedAt: !27)
!30 = !DILocation(line: 41, column: 39, scope: !4)
!31 = !DILocation(line: 41, column: 5, scope: !4)
!32 = !DILocation(line: 34, column: 1, scope: !4)
