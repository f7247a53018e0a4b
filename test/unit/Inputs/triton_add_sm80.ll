; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

; Function Attrs: nounwind
define ptx_kernel void @add(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, ptr addrspace(1) nofree readnone captures(none) %4, ptr addrspace(1) nofree readnone captures(none) %5) local_unnamed_addr #0 !dbg !4 {
  %7 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %8 = shl i32 %7, 8, !dbg !13
  %9 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !14
  %10 = and i32 %9, 127, !dbg !14
  %11 = or disjoint i32 %8, %10, !dbg !13
  %12 = or disjoint i32 %11, 128, !dbg !13
  %13 = icmp slt i32 %11, %3, !dbg !15
  %14 = icmp slt i32 %12, %3, !dbg !15
  %15 = sext i32 %11 to i64, !dbg !16
  %16 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %15, !dbg !16
  %17 = sext i32 %12 to i64, !dbg !16
  %18 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %17, !dbg !16
  %19 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %15, !dbg !17
  %20 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %17, !dbg !17
  %21 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(ptr addrspace(1) %19, i1 %13) #2, !dbg !18
  %22 = bitcast i32 %21 to float, !dbg !18
  %23 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(ptr addrspace(1) %20, i1 %14) #2, !dbg !18
  %24 = bitcast i32 %23 to float, !dbg !18
  %25 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %15, !dbg !19
  %26 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %17, !dbg !19
  %27 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(ptr addrspace(1) %25, i1 %13) #2, !dbg !20
  %28 = bitcast i32 %27 to float, !dbg !20
  %29 = tail call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"(ptr addrspace(1) %26, i1 %14) #2, !dbg !20
  %30 = bitcast i32 %29 to float, !dbg !20
  %31 = fadd float %22, %28, !dbg !18
  %32 = fadd float %24, %30, !dbg !18
  %33 = bitcast float %31 to i32, !dbg !21
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %33, ptr addrspace(1) %16, i1 %13) #2, !dbg !21
  %34 = bitcast float %32 to i32, !dbg !21
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %34, ptr addrspace(1) %18, i1 %14) #2, !dbg !21
  ret void, !dbg !22
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "add", linkageName: "add", scope: !1, file: !1, line: 26, type: !5, scopeLine: 26, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{null, !7, !7, !7, !9, !10, !10}
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 1)
!8 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !11, size: 64, dwarfAddressSpace: 1)
!11 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!12 = !DILocation(line: 27, column: 11, scope: !4)
!13 = !DILocation(line: 28, column: 12, scope: !4)
!14 = !DILocation(line: 28, column: 26, scope: !4)
!15 = !DILocation(line: 29, column: 9, scope: !4)
!16 = !DILocation(line: 30, column: 14, scope: !4)
!17 = !DILocation(line: 30, column: 34, scope: !4)
!18 = !DILocation(line: 30, column: 26, scope: !4)
!19 = !DILocation(line: 30, column: 62, scope: !4)
!20 = !DILocation(line: 30, column: 54, scope: !4)
!21 = !DILocation(line: 30, column: 5, scope: !4)
!22 = !DILocation(line: 26, column: 1, scope: !4)
