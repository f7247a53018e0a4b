; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16
@.str = private unnamed_addr constant [11 x i8] c"__CUDA_FTZ\00", align 1

; Function Attrs: nounwind
define ptx_kernel void @attention(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, ptr addrspace(1) %3, float %4, ptr addrspace(1) nofree readnone captures(none) %5, ptr addrspace(1) nofree readnone captures(none) %6) local_unnamed_addr #0 !dbg !6 {
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !15
  %9 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !16
  %10 = shl i32 %8, 5, !dbg !17
  %11 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %12 = and i32 %11, 96, !dbg !18
  %13 = lshr exact i32 %12, 5, !dbg !18
  %14 = or disjoint i32 %13, 4, !dbg !18
  %15 = or disjoint i32 %13, 8, !dbg !18
  %16 = or disjoint i32 %13, 12, !dbg !18
  %17 = or disjoint i32 %13, 16, !dbg !18
  %18 = or disjoint i32 %13, 20, !dbg !18
  %19 = or disjoint i32 %13, 24, !dbg !18
  %20 = or disjoint i32 %13, 28, !dbg !18
  %21 = or disjoint i32 %13, %10, !dbg !17
  %22 = or disjoint i32 %14, %10, !dbg !17
  %23 = or disjoint i32 %15, %10, !dbg !17
  %24 = or disjoint i32 %16, %10, !dbg !17
  %25 = or disjoint i32 %17, %10, !dbg !17
  %26 = or disjoint i32 %18, %10, !dbg !17
  %27 = or disjoint i32 %19, %10, !dbg !17
  %28 = or disjoint i32 %20, %10, !dbg !17
  %29 = shl nuw nsw i32 %9, 11, !dbg !19
  %30 = zext nneg i32 %29 to i64, !dbg !20
  %31 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %30, !dbg !20
  %32 = shl i32 %21, 5, !dbg !21
  %33 = shl i32 %22, 5, !dbg !21
  %34 = shl i32 %23, 5, !dbg !21
  %35 = shl i32 %24, 5, !dbg !21
  %36 = shl i32 %25, 5, !dbg !21
  %37 = shl i32 %26, 5, !dbg !21
  %38 = shl i32 %27, 5, !dbg !21
  %39 = shl i32 %28, 5, !dbg !21
  %40 = sext i32 %32 to i64, !dbg !20
  %41 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %40, !dbg !20
  %42 = sext i32 %33 to i64, !dbg !20
  %43 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %42, !dbg !20
  %44 = sext i32 %34 to i64, !dbg !20
  %45 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %44, !dbg !20
  %46 = sext i32 %35 to i64, !dbg !20
  %47 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %46, !dbg !20
  %48 = sext i32 %36 to i64, !dbg !20
  %49 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %48, !dbg !20
  %50 = sext i32 %37 to i64, !dbg !20
  %51 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %50, !dbg !20
  %52 = sext i32 %38 to i64, !dbg !20
  %53 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %52, !dbg !20
  %54 = sext i32 %39 to i64, !dbg !20
  %55 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %54, !dbg !20
  %56 = and i32 %11, 31, !dbg !22
  %57 = zext nneg i32 %56 to i64, !dbg !20
  %58 = getelementptr [2 x i8], ptr addrspace(1) %41, i64 %57, !dbg !20
  %59 = getelementptr [2 x i8], ptr addrspace(1) %43, i64 %57, !dbg !20
  %60 = getelementptr [2 x i8], ptr addrspace(1) %45, i64 %57, !dbg !20
  %61 = getelementptr [2 x i8], ptr addrspace(1) %47, i64 %57, !dbg !20
  %62 = getelementptr [2 x i8], ptr addrspace(1) %49, i64 %57, !dbg !20
  %63 = getelementptr [2 x i8], ptr addrspace(1) %51, i64 %57, !dbg !20
  %64 = getelementptr [2 x i8], ptr addrspace(1) %53, i64 %57, !dbg !20
  %65 = getelementptr [2 x i8], ptr addrspace(1) %55, i64 %57, !dbg !20
  %66 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %58) #9, !dbg !23
  %67 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %59) #9, !dbg !23
  %68 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %60) #9, !dbg !23
  %69 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %61) #9, !dbg !23
  %70 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %62) #9, !dbg !23
  %71 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %63) #9, !dbg !23
  %72 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %64) #9, !dbg !23
  %73 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %65) #9, !dbg !23
  %74 = shl nuw nsw i32 %11, 1, !dbg !23
  %75 = and i32 %74, 126, !dbg !23
  %76 = and i32 %11, 64, !dbg !23
  %77 = icmp eq i32 %76, 0, !dbg !23
  %78 = select i1 %77, i32 0, i32 144, !dbg !23
  %79 = xor i32 %78, %75, !dbg !23
  %80 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %79, !dbg !23
  %81 = insertelement <1 x i16> poison, i16 %66, i64 0, !dbg !23
  store <1 x i16> %81, ptr addrspace(3) %80, align 2, !dbg !23
  %82 = or disjoint i32 %79, 512, !dbg !23
  %83 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %82, !dbg !23
  %84 = insertelement <1 x i16> poison, i16 %68, i64 0, !dbg !23
  store <1 x i16> %84, ptr addrspace(3) %83, align 2, !dbg !23
  %85 = or disjoint i32 %79, 1024, !dbg !23
  %86 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %85, !dbg !23
  %87 = insertelement <1 x i16> poison, i16 %70, i64 0, !dbg !23
  store <1 x i16> %87, ptr addrspace(3) %86, align 2, !dbg !23
  %88 = or disjoint i32 %79, 1536, !dbg !23
  %89 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %88, !dbg !23
  %90 = insertelement <1 x i16> poison, i16 %72, i64 0, !dbg !23
  store <1 x i16> %90, ptr addrspace(3) %89, align 2, !dbg !23
  %91 = xor i32 %79, 288, !dbg !23
  %92 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %91, !dbg !23
  %93 = insertelement <1 x i16> poison, i16 %67, i64 0, !dbg !23
  store <1 x i16> %93, ptr addrspace(3) %92, align 2, !dbg !23
  %94 = or disjoint i32 %91, 512, !dbg !23
  %95 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %94, !dbg !23
  %96 = insertelement <1 x i16> poison, i16 %69, i64 0, !dbg !23
  store <1 x i16> %96, ptr addrspace(3) %95, align 2, !dbg !23
  %97 = or disjoint i32 %91, 1024, !dbg !23
  %98 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %97, !dbg !23
  %99 = insertelement <1 x i16> poison, i16 %71, i64 0, !dbg !23
  store <1 x i16> %99, ptr addrspace(3) %98, align 2, !dbg !23
  %100 = or disjoint i32 %91, 1536, !dbg !23
  %101 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %100, !dbg !23
  %102 = insertelement <1 x i16> poison, i16 %73, i64 0, !dbg !23
  store <1 x i16> %102, ptr addrspace(3) %101, align 2, !dbg !23
  %103 = fmul float %4, 0x3FF7154760000000, !dbg !24
  %104 = mul nuw nsw i32 %9, 3072, !dbg !25
  %105 = zext nneg i32 %104 to i64, !dbg !26
  %106 = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %105, !dbg !26
  %107 = getelementptr [2 x i8], ptr addrspace(1) %2, i64 %105, !dbg !27
  %invariant.gep = getelementptr [2 x i8], ptr addrspace(1) %106, i64 %57, !dbg !28
  %invariant.gep81 = getelementptr [2 x i8], ptr addrspace(1) %107, i64 %57, !dbg !28
  %108 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %79
  %109 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %82
  %110 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %85
  %111 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %88
  %112 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %91
  %113 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %94
  %114 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %97
  %115 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %100
  %116 = shl nuw nsw i32 %11, 6
  %117 = and i32 %116, 960
  %118 = shl nuw nsw i32 %11, 3
  %119 = and i32 %118, 48
  %120 = and i32 %11, 16
  %121 = shl nuw nsw i32 %11, 5
  %122 = and i32 %121, 1024
  %123 = or disjoint i32 %117, %122
  %124 = xor i32 %119, %120
  %125 = or disjoint i32 %123, %124
  %126 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %125
  %127 = xor i32 %125, 32
  %128 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %127
  %129 = and i32 %116, 448
  %130 = and i32 %74, 48
  %131 = or disjoint i32 %129, %119
  %132 = xor i32 %131, %130
  %133 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %132
  %134 = getelementptr inbounds nuw i8, ptr addrspace(3) %133, i32 512
  %135 = getelementptr inbounds nuw i8, ptr addrspace(3) %133, i32 1024
  %136 = getelementptr inbounds nuw i8, ptr addrspace(3) %133, i32 1536
  %137 = shl nuw nsw i32 %56, 6
  %138 = or disjoint i32 %137, %119
  %139 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %138
  %140 = xor i32 %138, 16
  %141 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %140
  %142 = xor i32 %138, 32
  %143 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %142
  %144 = xor i32 %138, 48
  %145 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %144
  %146 = zext nneg i32 %13 to i64, !dbg !28
  %147 = zext nneg i32 %14 to i64, !dbg !28
  %148 = zext nneg i32 %15 to i64, !dbg !28
  %149 = zext nneg i32 %16 to i64, !dbg !28
  %150 = zext nneg i32 %17 to i64, !dbg !28
  %151 = zext nneg i32 %18 to i64, !dbg !28
  %152 = zext nneg i32 %19 to i64, !dbg !28
  %153 = zext nneg i32 %20 to i64, !dbg !28
  br label %154, !dbg !28

154:                                              ; preds = %7, %__nv_exp2f.exit65
  %indvars.iv = phi i64 [ 0, %7 ], [ %indvars.iv.next, %__nv_exp2f.exit65 ]
  %155 = phi float [ 0.000000e+00, %7 ], [ %582, %__nv_exp2f.exit65 ]
  %156 = phi float [ 0.000000e+00, %7 ], [ %583, %__nv_exp2f.exit65 ]
  %157 = phi float [ 0.000000e+00, %7 ], [ %584, %__nv_exp2f.exit65 ]
  %158 = phi float [ 0.000000e+00, %7 ], [ %585, %__nv_exp2f.exit65 ]
  %159 = phi float [ 0.000000e+00, %7 ], [ %587, %__nv_exp2f.exit65 ]
  %160 = phi float [ 0.000000e+00, %7 ], [ %588, %__nv_exp2f.exit65 ]
  %161 = phi float [ 0.000000e+00, %7 ], [ %589, %__nv_exp2f.exit65 ]
  %162 = phi float [ 0.000000e+00, %7 ], [ %590, %__nv_exp2f.exit65 ]
  %163 = phi float [ 0.000000e+00, %7 ], [ %592, %__nv_exp2f.exit65 ]
  %164 = phi float [ 0.000000e+00, %7 ], [ %593, %__nv_exp2f.exit65 ]
  %165 = phi float [ 0.000000e+00, %7 ], [ %594, %__nv_exp2f.exit65 ]
  %166 = phi float [ 0.000000e+00, %7 ], [ %595, %__nv_exp2f.exit65 ]
  %167 = phi float [ 0.000000e+00, %7 ], [ %597, %__nv_exp2f.exit65 ]
  %168 = phi float [ 0.000000e+00, %7 ], [ %598, %__nv_exp2f.exit65 ]
  %169 = phi float [ 0.000000e+00, %7 ], [ %599, %__nv_exp2f.exit65 ]
  %170 = phi float [ 0.000000e+00, %7 ], [ %600, %__nv_exp2f.exit65 ]
  %171 = phi float [ 0.000000e+00, %7 ], [ %467, %__nv_exp2f.exit65 ]
  %172 = phi float [ 0.000000e+00, %7 ], [ %468, %__nv_exp2f.exit65 ]
  %173 = phi float [ 0xFFF0000000000000, %7 ], [ %309, %__nv_exp2f.exit65 ]
  %174 = phi float [ 0xFFF0000000000000, %7 ], [ %310, %__nv_exp2f.exit65 ]
  %175 = or disjoint i64 %indvars.iv, %146, !dbg !29
  %176 = or disjoint i64 %indvars.iv, %147, !dbg !29
  %177 = or disjoint i64 %indvars.iv, %148, !dbg !29
  %178 = or disjoint i64 %indvars.iv, %149, !dbg !29
  %179 = or disjoint i64 %indvars.iv, %150, !dbg !29
  %180 = or disjoint i64 %indvars.iv, %151, !dbg !29
  %181 = or disjoint i64 %indvars.iv, %152, !dbg !29
  %182 = or disjoint i64 %indvars.iv, %153, !dbg !29
  %183 = shl nuw nsw i64 %175, 5, !dbg !30
  %184 = shl nuw nsw i64 %176, 5, !dbg !30
  %185 = shl nuw nsw i64 %177, 5, !dbg !30
  %186 = shl nuw nsw i64 %178, 5, !dbg !30
  %187 = shl nuw nsw i64 %179, 5, !dbg !30
  %188 = shl nuw nsw i64 %180, 5, !dbg !30
  %189 = shl nuw nsw i64 %181, 5, !dbg !30
  %190 = shl nuw nsw i64 %182, 5, !dbg !30
  %gep = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %183, !dbg !26
  %gep68 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %184, !dbg !26
  %gep70 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %185, !dbg !26
  %gep72 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %186, !dbg !26
  %gep74 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %187, !dbg !26
  %gep76 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %188, !dbg !26
  %gep78 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %189, !dbg !26
  %gep80 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %190, !dbg !26
  %191 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep) #9, !dbg !31
  %192 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep68) #9, !dbg !31
  %193 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep70) #9, !dbg !31
  %194 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep72) #9, !dbg !31
  %195 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep74) #9, !dbg !31
  %196 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep76) #9, !dbg !31
  %197 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep78) #9, !dbg !31
  %198 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep80) #9, !dbg !31
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  %199 = insertelement <1 x i16> poison, i16 %191, i64 0, !dbg !31
  store <1 x i16> %199, ptr addrspace(3) %108, align 2, !dbg !31
  %200 = insertelement <1 x i16> poison, i16 %193, i64 0, !dbg !31
  store <1 x i16> %200, ptr addrspace(3) %109, align 2, !dbg !31
  %201 = insertelement <1 x i16> poison, i16 %195, i64 0, !dbg !31
  store <1 x i16> %201, ptr addrspace(3) %110, align 2, !dbg !31
  %202 = insertelement <1 x i16> poison, i16 %197, i64 0, !dbg !31
  store <1 x i16> %202, ptr addrspace(3) %111, align 2, !dbg !31
  %203 = insertelement <1 x i16> poison, i16 %192, i64 0, !dbg !31
  store <1 x i16> %203, ptr addrspace(3) %112, align 2, !dbg !31
  %204 = insertelement <1 x i16> poison, i16 %194, i64 0, !dbg !31
  store <1 x i16> %204, ptr addrspace(3) %113, align 2, !dbg !31
  %205 = insertelement <1 x i16> poison, i16 %196, i64 0, !dbg !31
  store <1 x i16> %205, ptr addrspace(3) %114, align 2, !dbg !31
  %206 = insertelement <1 x i16> poison, i16 %198, i64 0, !dbg !31
  store <1 x i16> %206, ptr addrspace(3) %115, align 2, !dbg !31
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !23
  %207 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %126), !dbg !23
  %208 = extractvalue { i32, i32, i32, i32 } %207, 0, !dbg !23
  %209 = extractvalue { i32, i32, i32, i32 } %207, 1, !dbg !23
  %210 = extractvalue { i32, i32, i32, i32 } %207, 2, !dbg !23
  %211 = extractvalue { i32, i32, i32, i32 } %207, 3, !dbg !23
  %212 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %128), !dbg !23
  %213 = extractvalue { i32, i32, i32, i32 } %212, 0, !dbg !23
  %214 = extractvalue { i32, i32, i32, i32 } %212, 1, !dbg !23
  %215 = extractvalue { i32, i32, i32, i32 } %212, 2, !dbg !23
  %216 = extractvalue { i32, i32, i32, i32 } %212, 3, !dbg !23
  %217 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %133), !dbg !31
  %218 = extractvalue { i32, i32, i32, i32 } %217, 0, !dbg !31
  %219 = extractvalue { i32, i32, i32, i32 } %217, 1, !dbg !31
  %220 = extractvalue { i32, i32, i32, i32 } %217, 2, !dbg !31
  %221 = extractvalue { i32, i32, i32, i32 } %217, 3, !dbg !31
  %222 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) nonnull %134), !dbg !31
  %223 = extractvalue { i32, i32, i32, i32 } %222, 0, !dbg !31
  %224 = extractvalue { i32, i32, i32, i32 } %222, 1, !dbg !31
  %225 = extractvalue { i32, i32, i32, i32 } %222, 2, !dbg !31
  %226 = extractvalue { i32, i32, i32, i32 } %222, 3, !dbg !31
  %227 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) nonnull %135), !dbg !31
  %228 = extractvalue { i32, i32, i32, i32 } %227, 0, !dbg !31
  %229 = extractvalue { i32, i32, i32, i32 } %227, 1, !dbg !31
  %230 = extractvalue { i32, i32, i32, i32 } %227, 2, !dbg !31
  %231 = extractvalue { i32, i32, i32, i32 } %227, 3, !dbg !31
  %232 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) nonnull %136), !dbg !31
  %233 = extractvalue { i32, i32, i32, i32 } %232, 0, !dbg !31
  %234 = extractvalue { i32, i32, i32, i32 } %232, 1, !dbg !31
  %235 = extractvalue { i32, i32, i32, i32 } %232, 2, !dbg !31
  %236 = extractvalue { i32, i32, i32, i32 } %232, 3, !dbg !31
  %237 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, i32 %208, i32 %209, i32 %210, i32 %211, i32 %218, i32 %219) #9, !dbg !32
  %238 = extractvalue { float, float, float, float } %237, 0, !dbg !32
  %239 = extractvalue { float, float, float, float } %237, 1, !dbg !32
  %240 = extractvalue { float, float, float, float } %237, 2, !dbg !32
  %241 = extractvalue { float, float, float, float } %237, 3, !dbg !32
  %242 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, i32 %208, i32 %209, i32 %210, i32 %211, i32 %223, i32 %224) #9, !dbg !32
  %243 = extractvalue { float, float, float, float } %242, 0, !dbg !32
  %244 = extractvalue { float, float, float, float } %242, 1, !dbg !32
  %245 = extractvalue { float, float, float, float } %242, 2, !dbg !32
  %246 = extractvalue { float, float, float, float } %242, 3, !dbg !32
  %247 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, i32 %208, i32 %209, i32 %210, i32 %211, i32 %228, i32 %229) #9, !dbg !32
  %248 = extractvalue { float, float, float, float } %247, 0, !dbg !32
  %249 = extractvalue { float, float, float, float } %247, 1, !dbg !32
  %250 = extractvalue { float, float, float, float } %247, 2, !dbg !32
  %251 = extractvalue { float, float, float, float } %247, 3, !dbg !32
  %252 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, i32 %208, i32 %209, i32 %210, i32 %211, i32 %233, i32 %234) #9, !dbg !32
  %253 = extractvalue { float, float, float, float } %252, 0, !dbg !32
  %254 = extractvalue { float, float, float, float } %252, 1, !dbg !32
  %255 = extractvalue { float, float, float, float } %252, 2, !dbg !32
  %256 = extractvalue { float, float, float, float } %252, 3, !dbg !32
  %257 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %238, float %239, float %240, float %241, i32 %213, i32 %214, i32 %215, i32 %216, i32 %220, i32 %221) #9, !dbg !32
  %258 = extractvalue { float, float, float, float } %257, 0, !dbg !32
  %259 = extractvalue { float, float, float, float } %257, 1, !dbg !32
  %260 = extractvalue { float, float, float, float } %257, 2, !dbg !32
  %261 = extractvalue { float, float, float, float } %257, 3, !dbg !32
  %262 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %243, float %244, float %245, float %246, i32 %213, i32 %214, i32 %215, i32 %216, i32 %225, i32 %226) #9, !dbg !32
  %263 = extractvalue { float, float, float, float } %262, 0, !dbg !32
  %264 = extractvalue { float, float, float, float } %262, 1, !dbg !32
  %265 = extractvalue { float, float, float, float } %262, 2, !dbg !32
  %266 = extractvalue { float, float, float, float } %262, 3, !dbg !32
  %267 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %248, float %249, float %250, float %251, i32 %213, i32 %214, i32 %215, i32 %216, i32 %230, i32 %231) #9, !dbg !32
  %268 = extractvalue { float, float, float, float } %267, 0, !dbg !32
  %269 = extractvalue { float, float, float, float } %267, 1, !dbg !32
  %270 = extractvalue { float, float, float, float } %267, 2, !dbg !32
  %271 = extractvalue { float, float, float, float } %267, 3, !dbg !32
  %272 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %253, float %254, float %255, float %256, i32 %213, i32 %214, i32 %215, i32 %216, i32 %235, i32 %236) #9, !dbg !32
  %273 = extractvalue { float, float, float, float } %272, 0, !dbg !32
  %274 = extractvalue { float, float, float, float } %272, 1, !dbg !32
  %275 = extractvalue { float, float, float, float } %272, 2, !dbg !32
  %276 = extractvalue { float, float, float, float } %272, 3, !dbg !32
  %277 = tail call float @llvm.maxnum.f32(float %258, float %259), !dbg !33
  %278 = tail call float @llvm.maxnum.f32(float %263, float %264), !dbg !33
  %279 = tail call float @llvm.maxnum.f32(float %268, float %269), !dbg !33
  %280 = tail call float @llvm.maxnum.f32(float %273, float %274), !dbg !33
  %281 = tail call float @llvm.maxnum.f32(float %277, float %278), !dbg !33
  %282 = tail call float @llvm.maxnum.f32(float %279, float %280), !dbg !33
  %283 = tail call float @llvm.maxnum.f32(float %281, float %282), !dbg !33
  %284 = tail call float @llvm.maxnum.f32(float %260, float %261), !dbg !33
  %285 = tail call float @llvm.maxnum.f32(float %265, float %266), !dbg !33
  %286 = tail call float @llvm.maxnum.f32(float %270, float %271), !dbg !33
  %287 = tail call float @llvm.maxnum.f32(float %275, float %276), !dbg !33
  %288 = tail call float @llvm.maxnum.f32(float %284, float %285), !dbg !33
  %289 = tail call float @llvm.maxnum.f32(float %286, float %287), !dbg !33
  %290 = tail call float @llvm.maxnum.f32(float %288, float %289), !dbg !33
  %291 = bitcast float %283 to i32, !dbg !36
  %292 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %291, i32 2, i32 31), !dbg !36
  %293 = bitcast i32 %292 to float, !dbg !36
  %294 = tail call float @llvm.maxnum.f32(float %283, float %293), !dbg !33
  %295 = bitcast float %294 to i32, !dbg !36
  %296 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %295, i32 1, i32 31), !dbg !36
  %297 = bitcast i32 %296 to float, !dbg !36
  %298 = tail call float @llvm.maxnum.f32(float %294, float %297), !dbg !33
  %299 = bitcast float %290 to i32, !dbg !36
  %300 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %299, i32 2, i32 31), !dbg !36
  %301 = bitcast i32 %300 to float, !dbg !36
  %302 = tail call float @llvm.maxnum.f32(float %290, float %301), !dbg !33
  %303 = bitcast float %302 to i32, !dbg !36
  %304 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %303, i32 1, i32 31), !dbg !36
  %305 = bitcast i32 %304 to float, !dbg !36
  %306 = tail call float @llvm.maxnum.f32(float %302, float %305), !dbg !33
  %307 = fmul float %103, %298, !dbg !39
  %308 = fmul float %103, %306, !dbg !39
  %309 = tail call float @llvm.maxnum.f32(float %173, float %307), !dbg !40
  %310 = tail call float @llvm.maxnum.f32(float %174, float %308), !dbg !40
  %311 = fmul float %103, %258, !dbg !41
  %312 = fmul float %103, %259, !dbg !41
  %313 = fmul float %103, %260, !dbg !41
  %314 = fmul float %103, %261, !dbg !41
  %315 = fmul float %103, %263, !dbg !41
  %316 = fmul float %103, %264, !dbg !41
  %317 = fmul float %103, %265, !dbg !41
  %318 = fmul float %103, %266, !dbg !41
  %319 = fmul float %103, %268, !dbg !41
  %320 = fmul float %103, %269, !dbg !41
  %321 = fmul float %103, %270, !dbg !41
  %322 = fmul float %103, %271, !dbg !41
  %323 = fmul float %103, %273, !dbg !41
  %324 = fmul float %103, %274, !dbg !41
  %325 = fmul float %103, %275, !dbg !41
  %326 = fmul float %103, %276, !dbg !41
  %327 = fsub float %311, %309, !dbg !41
  %328 = fsub float %312, %309, !dbg !41
  %329 = fsub float %313, %310, !dbg !41
  %330 = fsub float %314, %310, !dbg !41
  %331 = fsub float %315, %309, !dbg !41
  %332 = fsub float %316, %309, !dbg !41
  %333 = fsub float %317, %310, !dbg !41
  %334 = fsub float %318, %310, !dbg !41
  %335 = fsub float %319, %309, !dbg !41
  %336 = fsub float %320, %309, !dbg !41
  %337 = fsub float %321, %310, !dbg !41
  %338 = fsub float %322, %310, !dbg !41
  %339 = fsub float %323, %309, !dbg !41
  %340 = fsub float %324, %309, !dbg !41
  %341 = fsub float %325, %310, !dbg !41
  %342 = fsub float %326, %310, !dbg !41
  %343 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i = icmp eq i32 %343, 0, !dbg !42
  br i1 %.not.i, label %346, label %344, !dbg !42

344:                                              ; preds = %154
  %345 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %327), !dbg !42
  br label %__nv_exp2f.exit, !dbg !42

346:                                              ; preds = %154
  %347 = tail call float @llvm.nvvm.ex2.approx.f32(float %327), !dbg !42
  br label %__nv_exp2f.exit, !dbg !42

__nv_exp2f.exit:                                  ; preds = %344, %346
  %.0.i = phi float [ %345, %344 ], [ %347, %346 ], !dbg !42
  %348 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i15 = icmp eq i32 %348, 0, !dbg !42
  br i1 %.not.i15, label %351, label %349, !dbg !42

349:                                              ; preds = %__nv_exp2f.exit
  %350 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %328), !dbg !42
  br label %__nv_exp2f.exit17, !dbg !42

351:                                              ; preds = %__nv_exp2f.exit
  %352 = tail call float @llvm.nvvm.ex2.approx.f32(float %328), !dbg !42
  br label %__nv_exp2f.exit17, !dbg !42

__nv_exp2f.exit17:                                ; preds = %349, %351
  %.0.i16 = phi float [ %350, %349 ], [ %352, %351 ], !dbg !42
  %353 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i18 = icmp eq i32 %353, 0, !dbg !42
  br i1 %.not.i18, label %356, label %354, !dbg !42

354:                                              ; preds = %__nv_exp2f.exit17
  %355 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %329), !dbg !42
  br label %__nv_exp2f.exit20, !dbg !42

356:                                              ; preds = %__nv_exp2f.exit17
  %357 = tail call float @llvm.nvvm.ex2.approx.f32(float %329), !dbg !42
  br label %__nv_exp2f.exit20, !dbg !42

__nv_exp2f.exit20:                                ; preds = %354, %356
  %.0.i19 = phi float [ %355, %354 ], [ %357, %356 ], !dbg !42
  %358 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i21 = icmp eq i32 %358, 0, !dbg !42
  br i1 %.not.i21, label %361, label %359, !dbg !42

359:                                              ; preds = %__nv_exp2f.exit20
  %360 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %330), !dbg !42
  br label %__nv_exp2f.exit23, !dbg !42

361:                                              ; preds = %__nv_exp2f.exit20
  %362 = tail call float @llvm.nvvm.ex2.approx.f32(float %330), !dbg !42
  br label %__nv_exp2f.exit23, !dbg !42

__nv_exp2f.exit23:                                ; preds = %359, %361
  %.0.i22 = phi float [ %360, %359 ], [ %362, %361 ], !dbg !42
  %363 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i24 = icmp eq i32 %363, 0, !dbg !42
  br i1 %.not.i24, label %366, label %364, !dbg !42

364:                                              ; preds = %__nv_exp2f.exit23
  %365 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %331), !dbg !42
  br label %__nv_exp2f.exit26, !dbg !42

366:                                              ; preds = %__nv_exp2f.exit23
  %367 = tail call float @llvm.nvvm.ex2.approx.f32(float %331), !dbg !42
  br label %__nv_exp2f.exit26, !dbg !42

__nv_exp2f.exit26:                                ; preds = %364, %366
  %.0.i25 = phi float [ %365, %364 ], [ %367, %366 ], !dbg !42
  %368 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i27 = icmp eq i32 %368, 0, !dbg !42
  br i1 %.not.i27, label %371, label %369, !dbg !42

369:                                              ; preds = %__nv_exp2f.exit26
  %370 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %332), !dbg !42
  br label %__nv_exp2f.exit29, !dbg !42

371:                                              ; preds = %__nv_exp2f.exit26
  %372 = tail call float @llvm.nvvm.ex2.approx.f32(float %332), !dbg !42
  br label %__nv_exp2f.exit29, !dbg !42

__nv_exp2f.exit29:                                ; preds = %369, %371
  %.0.i28 = phi float [ %370, %369 ], [ %372, %371 ], !dbg !42
  %373 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i30 = icmp eq i32 %373, 0, !dbg !42
  br i1 %.not.i30, label %376, label %374, !dbg !42

374:                                              ; preds = %__nv_exp2f.exit29
  %375 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %333), !dbg !42
  br label %__nv_exp2f.exit32, !dbg !42

376:                                              ; preds = %__nv_exp2f.exit29
  %377 = tail call float @llvm.nvvm.ex2.approx.f32(float %333), !dbg !42
  br label %__nv_exp2f.exit32, !dbg !42

__nv_exp2f.exit32:                                ; preds = %374, %376
  %.0.i31 = phi float [ %375, %374 ], [ %377, %376 ], !dbg !42
  %378 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i33 = icmp eq i32 %378, 0, !dbg !42
  br i1 %.not.i33, label %381, label %379, !dbg !42

379:                                              ; preds = %__nv_exp2f.exit32
  %380 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %334), !dbg !42
  br label %__nv_exp2f.exit35, !dbg !42

381:                                              ; preds = %__nv_exp2f.exit32
  %382 = tail call float @llvm.nvvm.ex2.approx.f32(float %334), !dbg !42
  br label %__nv_exp2f.exit35, !dbg !42

__nv_exp2f.exit35:                                ; preds = %379, %381
  %.0.i34 = phi float [ %380, %379 ], [ %382, %381 ], !dbg !42
  %383 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i36 = icmp eq i32 %383, 0, !dbg !42
  br i1 %.not.i36, label %386, label %384, !dbg !42

384:                                              ; preds = %__nv_exp2f.exit35
  %385 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %335), !dbg !42
  br label %__nv_exp2f.exit38, !dbg !42

386:                                              ; preds = %__nv_exp2f.exit35
  %387 = tail call float @llvm.nvvm.ex2.approx.f32(float %335), !dbg !42
  br label %__nv_exp2f.exit38, !dbg !42

__nv_exp2f.exit38:                                ; preds = %384, %386
  %.0.i37 = phi float [ %385, %384 ], [ %387, %386 ], !dbg !42
  %388 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i39 = icmp eq i32 %388, 0, !dbg !42
  br i1 %.not.i39, label %391, label %389, !dbg !42

389:                                              ; preds = %__nv_exp2f.exit38
  %390 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %336), !dbg !42
  br label %__nv_exp2f.exit41, !dbg !42

391:                                              ; preds = %__nv_exp2f.exit38
  %392 = tail call float @llvm.nvvm.ex2.approx.f32(float %336), !dbg !42
  br label %__nv_exp2f.exit41, !dbg !42

__nv_exp2f.exit41:                                ; preds = %389, %391
  %.0.i40 = phi float [ %390, %389 ], [ %392, %391 ], !dbg !42
  %393 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i42 = icmp eq i32 %393, 0, !dbg !42
  br i1 %.not.i42, label %396, label %394, !dbg !42

394:                                              ; preds = %__nv_exp2f.exit41
  %395 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %337), !dbg !42
  br label %__nv_exp2f.exit44, !dbg !42

396:                                              ; preds = %__nv_exp2f.exit41
  %397 = tail call float @llvm.nvvm.ex2.approx.f32(float %337), !dbg !42
  br label %__nv_exp2f.exit44, !dbg !42

__nv_exp2f.exit44:                                ; preds = %394, %396
  %.0.i43 = phi float [ %395, %394 ], [ %397, %396 ], !dbg !42
  %398 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i45 = icmp eq i32 %398, 0, !dbg !42
  br i1 %.not.i45, label %401, label %399, !dbg !42

399:                                              ; preds = %__nv_exp2f.exit44
  %400 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %338), !dbg !42
  br label %__nv_exp2f.exit47, !dbg !42

401:                                              ; preds = %__nv_exp2f.exit44
  %402 = tail call float @llvm.nvvm.ex2.approx.f32(float %338), !dbg !42
  br label %__nv_exp2f.exit47, !dbg !42

__nv_exp2f.exit47:                                ; preds = %399, %401
  %.0.i46 = phi float [ %400, %399 ], [ %402, %401 ], !dbg !42
  %403 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i48 = icmp eq i32 %403, 0, !dbg !42
  br i1 %.not.i48, label %406, label %404, !dbg !42

404:                                              ; preds = %__nv_exp2f.exit47
  %405 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %339), !dbg !42
  br label %__nv_exp2f.exit50, !dbg !42

406:                                              ; preds = %__nv_exp2f.exit47
  %407 = tail call float @llvm.nvvm.ex2.approx.f32(float %339), !dbg !42
  br label %__nv_exp2f.exit50, !dbg !42

__nv_exp2f.exit50:                                ; preds = %404, %406
  %.0.i49 = phi float [ %405, %404 ], [ %407, %406 ], !dbg !42
  %408 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i51 = icmp eq i32 %408, 0, !dbg !42
  br i1 %.not.i51, label %411, label %409, !dbg !42

409:                                              ; preds = %__nv_exp2f.exit50
  %410 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %340), !dbg !42
  br label %__nv_exp2f.exit53, !dbg !42

411:                                              ; preds = %__nv_exp2f.exit50
  %412 = tail call float @llvm.nvvm.ex2.approx.f32(float %340), !dbg !42
  br label %__nv_exp2f.exit53, !dbg !42

__nv_exp2f.exit53:                                ; preds = %409, %411
  %.0.i52 = phi float [ %410, %409 ], [ %412, %411 ], !dbg !42
  %413 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i54 = icmp eq i32 %413, 0, !dbg !42
  br i1 %.not.i54, label %416, label %414, !dbg !42

414:                                              ; preds = %__nv_exp2f.exit53
  %415 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %341), !dbg !42
  br label %__nv_exp2f.exit56, !dbg !42

416:                                              ; preds = %__nv_exp2f.exit53
  %417 = tail call float @llvm.nvvm.ex2.approx.f32(float %341), !dbg !42
  br label %__nv_exp2f.exit56, !dbg !42

__nv_exp2f.exit56:                                ; preds = %414, %416
  %.0.i55 = phi float [ %415, %414 ], [ %417, %416 ], !dbg !42
  %418 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !42
  %.not.i57 = icmp eq i32 %418, 0, !dbg !42
  br i1 %.not.i57, label %421, label %419, !dbg !42

419:                                              ; preds = %__nv_exp2f.exit56
  %420 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %342), !dbg !42
  br label %__nv_exp2f.exit59, !dbg !42

421:                                              ; preds = %__nv_exp2f.exit56
  %422 = tail call float @llvm.nvvm.ex2.approx.f32(float %342), !dbg !42
  br label %__nv_exp2f.exit59, !dbg !42

__nv_exp2f.exit59:                                ; preds = %419, %421
  %.0.i58 = phi float [ %420, %419 ], [ %422, %421 ], !dbg !42
  %423 = fsub float %173, %309, !dbg !43
  %424 = fsub float %174, %310, !dbg !43
  %425 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !44
  %.not.i60 = icmp eq i32 %425, 0, !dbg !44
  br i1 %.not.i60, label %428, label %426, !dbg !44

426:                                              ; preds = %__nv_exp2f.exit59
  %427 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %423), !dbg !44
  br label %__nv_exp2f.exit62, !dbg !44

428:                                              ; preds = %__nv_exp2f.exit59
  %429 = tail call float @llvm.nvvm.ex2.approx.f32(float %423), !dbg !44
  br label %__nv_exp2f.exit62, !dbg !44

__nv_exp2f.exit62:                                ; preds = %426, %428
  %.0.i61 = phi float [ %427, %426 ], [ %429, %428 ], !dbg !44
  %430 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #9, !dbg !44
  %.not.i63 = icmp eq i32 %430, 0, !dbg !44
  br i1 %.not.i63, label %433, label %431, !dbg !44

431:                                              ; preds = %__nv_exp2f.exit62
  %432 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %424), !dbg !44
  br label %__nv_exp2f.exit65, !dbg !44

433:                                              ; preds = %__nv_exp2f.exit62
  %434 = tail call float @llvm.nvvm.ex2.approx.f32(float %424), !dbg !44
  br label %__nv_exp2f.exit65, !dbg !44

__nv_exp2f.exit65:                                ; preds = %431, %433
  %.0.i64 = phi float [ %432, %431 ], [ %434, %433 ], !dbg !44
  %435 = fmul float %171, %.0.i61, !dbg !45
  %436 = fmul float %172, %.0.i64, !dbg !45
  %437 = fadd float %.0.i, %.0.i16, !dbg !46
  %438 = fadd float %.0.i25, %.0.i28, !dbg !46
  %439 = fadd float %.0.i37, %.0.i40, !dbg !46
  %440 = fadd float %.0.i49, %.0.i52, !dbg !46
  %441 = fadd float %437, %438, !dbg !46
  %442 = fadd float %439, %440, !dbg !46
  %443 = fadd float %441, %442, !dbg !46
  %444 = fadd float %.0.i19, %.0.i22, !dbg !46
  %445 = fadd float %.0.i31, %.0.i34, !dbg !46
  %446 = fadd float %.0.i43, %.0.i46, !dbg !46
  %447 = fadd float %.0.i55, %.0.i58, !dbg !46
  %448 = fadd float %444, %445, !dbg !46
  %449 = fadd float %446, %447, !dbg !46
  %450 = fadd float %448, %449, !dbg !46
  %451 = bitcast float %443 to i32, !dbg !47
  %452 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %451, i32 2, i32 31), !dbg !47
  %453 = bitcast i32 %452 to float, !dbg !47
  %454 = fadd float %443, %453, !dbg !46
  %455 = bitcast float %454 to i32, !dbg !47
  %456 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %455, i32 1, i32 31), !dbg !47
  %457 = bitcast i32 %456 to float, !dbg !47
  %458 = fadd float %454, %457, !dbg !46
  %459 = bitcast float %450 to i32, !dbg !47
  %460 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %459, i32 2, i32 31), !dbg !47
  %461 = bitcast i32 %460 to float, !dbg !47
  %462 = fadd float %450, %461, !dbg !46
  %463 = bitcast float %462 to i32, !dbg !47
  %464 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %463, i32 1, i32 31), !dbg !47
  %465 = bitcast i32 %464 to float, !dbg !47
  %466 = fadd float %462, %465, !dbg !46
  %467 = fadd float %435, %458, !dbg !45
  %468 = fadd float %436, %466, !dbg !45
  %gep82 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %183, !dbg !27
  %gep84 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %184, !dbg !27
  %gep86 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %185, !dbg !27
  %gep88 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %186, !dbg !27
  %gep90 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %187, !dbg !27
  %gep92 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %188, !dbg !27
  %gep94 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %189, !dbg !27
  %gep96 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep81, i64 %190, !dbg !27
  %469 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep82) #9, !dbg !49
  %470 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep84) #9, !dbg !49
  %471 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep86) #9, !dbg !49
  %472 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep88) #9, !dbg !49
  %473 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep90) #9, !dbg !49
  %474 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep92) #9, !dbg !49
  %475 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep94) #9, !dbg !49
  %476 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep96) #9, !dbg !49
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !49
  %477 = insertelement <1 x i16> poison, i16 %469, i64 0, !dbg !49
  store <1 x i16> %477, ptr addrspace(3) %108, align 2, !dbg !49
  %478 = insertelement <1 x i16> poison, i16 %471, i64 0, !dbg !49
  store <1 x i16> %478, ptr addrspace(3) %109, align 2, !dbg !49
  %479 = insertelement <1 x i16> poison, i16 %473, i64 0, !dbg !49
  store <1 x i16> %479, ptr addrspace(3) %110, align 2, !dbg !49
  %480 = insertelement <1 x i16> poison, i16 %475, i64 0, !dbg !49
  store <1 x i16> %480, ptr addrspace(3) %111, align 2, !dbg !49
  %481 = insertelement <1 x i16> poison, i16 %470, i64 0, !dbg !49
  store <1 x i16> %481, ptr addrspace(3) %112, align 2, !dbg !49
  %482 = insertelement <1 x i16> poison, i16 %472, i64 0, !dbg !49
  store <1 x i16> %482, ptr addrspace(3) %113, align 2, !dbg !49
  %483 = insertelement <1 x i16> poison, i16 %474, i64 0, !dbg !49
  store <1 x i16> %483, ptr addrspace(3) %114, align 2, !dbg !49
  %484 = insertelement <1 x i16> poison, i16 %476, i64 0, !dbg !49
  store <1 x i16> %484, ptr addrspace(3) %115, align 2, !dbg !49
  %485 = fmul float %155, %.0.i61, !dbg !50
  %486 = fmul float %156, %.0.i61, !dbg !50
  %487 = fmul float %157, %.0.i64, !dbg !50
  %488 = fmul float %158, %.0.i64, !dbg !50
  %489 = fmul float %159, %.0.i61, !dbg !50
  %490 = fmul float %160, %.0.i61, !dbg !50
  %491 = fmul float %161, %.0.i64, !dbg !50
  %492 = fmul float %162, %.0.i64, !dbg !50
  %493 = fmul float %163, %.0.i61, !dbg !50
  %494 = fmul float %164, %.0.i61, !dbg !50
  %495 = fmul float %165, %.0.i64, !dbg !50
  %496 = fmul float %166, %.0.i64, !dbg !50
  %497 = fmul float %167, %.0.i61, !dbg !50
  %498 = fmul float %168, %.0.i61, !dbg !50
  %499 = fmul float %169, %.0.i64, !dbg !50
  %500 = fmul float %170, %.0.i64, !dbg !50
  %501 = fptrunc float %.0.i to half, !dbg !51
  %502 = fptrunc float %.0.i16 to half, !dbg !51
  %503 = fptrunc float %.0.i19 to half, !dbg !51
  %504 = fptrunc float %.0.i22 to half, !dbg !51
  %505 = fptrunc float %.0.i25 to half, !dbg !51
  %506 = fptrunc float %.0.i28 to half, !dbg !51
  %507 = fptrunc float %.0.i31 to half, !dbg !51
  %508 = fptrunc float %.0.i34 to half, !dbg !51
  %509 = fptrunc float %.0.i37 to half, !dbg !51
  %510 = fptrunc float %.0.i40 to half, !dbg !51
  %511 = fptrunc float %.0.i43 to half, !dbg !51
  %512 = fptrunc float %.0.i46 to half, !dbg !51
  %513 = fptrunc float %.0.i49 to half, !dbg !51
  %514 = fptrunc float %.0.i52 to half, !dbg !51
  %515 = fptrunc float %.0.i55 to half, !dbg !51
  %516 = fptrunc float %.0.i58 to half, !dbg !51
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !49
  %517 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %139), !dbg !49
  %518 = extractvalue { i32, i32, i32, i32 } %517, 0, !dbg !49
  %519 = extractvalue { i32, i32, i32, i32 } %517, 1, !dbg !49
  %520 = extractvalue { i32, i32, i32, i32 } %517, 2, !dbg !49
  %521 = extractvalue { i32, i32, i32, i32 } %517, 3, !dbg !49
  %522 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %141), !dbg !49
  %523 = extractvalue { i32, i32, i32, i32 } %522, 0, !dbg !49
  %524 = extractvalue { i32, i32, i32, i32 } %522, 1, !dbg !49
  %525 = extractvalue { i32, i32, i32, i32 } %522, 2, !dbg !49
  %526 = extractvalue { i32, i32, i32, i32 } %522, 3, !dbg !49
  %527 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %143), !dbg !49
  %528 = extractvalue { i32, i32, i32, i32 } %527, 0, !dbg !49
  %529 = extractvalue { i32, i32, i32, i32 } %527, 1, !dbg !49
  %530 = extractvalue { i32, i32, i32, i32 } %527, 2, !dbg !49
  %531 = extractvalue { i32, i32, i32, i32 } %527, 3, !dbg !49
  %532 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %145), !dbg !49
  %533 = extractvalue { i32, i32, i32, i32 } %532, 0, !dbg !49
  %534 = extractvalue { i32, i32, i32, i32 } %532, 1, !dbg !49
  %535 = extractvalue { i32, i32, i32, i32 } %532, 2, !dbg !49
  %536 = extractvalue { i32, i32, i32, i32 } %532, 3, !dbg !49
  %537 = insertelement <2 x half> poison, half %501, i64 0, !dbg !52
  %538 = insertelement <2 x half> %537, half %502, i64 1, !dbg !52
  %539 = bitcast <2 x half> %538 to i32, !dbg !52
  %540 = insertelement <2 x half> poison, half %503, i64 0, !dbg !52
  %541 = insertelement <2 x half> %540, half %504, i64 1, !dbg !52
  %542 = bitcast <2 x half> %541 to i32, !dbg !52
  %543 = insertelement <2 x half> poison, half %505, i64 0, !dbg !52
  %544 = insertelement <2 x half> %543, half %506, i64 1, !dbg !52
  %545 = bitcast <2 x half> %544 to i32, !dbg !52
  %546 = insertelement <2 x half> poison, half %507, i64 0, !dbg !52
  %547 = insertelement <2 x half> %546, half %508, i64 1, !dbg !52
  %548 = bitcast <2 x half> %547 to i32, !dbg !52
  %549 = insertelement <2 x half> poison, half %509, i64 0, !dbg !52
  %550 = insertelement <2 x half> %549, half %510, i64 1, !dbg !52
  %551 = bitcast <2 x half> %550 to i32, !dbg !52
  %552 = insertelement <2 x half> poison, half %511, i64 0, !dbg !52
  %553 = insertelement <2 x half> %552, half %512, i64 1, !dbg !52
  %554 = bitcast <2 x half> %553 to i32, !dbg !52
  %555 = insertelement <2 x half> poison, half %513, i64 0, !dbg !52
  %556 = insertelement <2 x half> %555, half %514, i64 1, !dbg !52
  %557 = bitcast <2 x half> %556 to i32, !dbg !52
  %558 = insertelement <2 x half> poison, half %515, i64 0, !dbg !52
  %559 = insertelement <2 x half> %558, half %516, i64 1, !dbg !52
  %560 = bitcast <2 x half> %559 to i32, !dbg !52
  %561 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %485, float %486, float %487, float %488, i32 %539, i32 %542, i32 %545, i32 %548, i32 %518, i32 %519) #9, !dbg !52
  %562 = extractvalue { float, float, float, float } %561, 0, !dbg !52
  %563 = extractvalue { float, float, float, float } %561, 1, !dbg !52
  %564 = extractvalue { float, float, float, float } %561, 2, !dbg !52
  %565 = extractvalue { float, float, float, float } %561, 3, !dbg !52
  %566 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %489, float %490, float %491, float %492, i32 %539, i32 %542, i32 %545, i32 %548, i32 %523, i32 %524) #9, !dbg !52
  %567 = extractvalue { float, float, float, float } %566, 0, !dbg !52
  %568 = extractvalue { float, float, float, float } %566, 1, !dbg !52
  %569 = extractvalue { float, float, float, float } %566, 2, !dbg !52
  %570 = extractvalue { float, float, float, float } %566, 3, !dbg !52
  %571 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %493, float %494, float %495, float %496, i32 %539, i32 %542, i32 %545, i32 %548, i32 %528, i32 %529) #9, !dbg !52
  %572 = extractvalue { float, float, float, float } %571, 0, !dbg !52
  %573 = extractvalue { float, float, float, float } %571, 1, !dbg !52
  %574 = extractvalue { float, float, float, float } %571, 2, !dbg !52
  %575 = extractvalue { float, float, float, float } %571, 3, !dbg !52
  %576 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %497, float %498, float %499, float %500, i32 %539, i32 %542, i32 %545, i32 %548, i32 %533, i32 %534) #9, !dbg !52
  %577 = extractvalue { float, float, float, float } %576, 0, !dbg !52
  %578 = extractvalue { float, float, float, float } %576, 1, !dbg !52
  %579 = extractvalue { float, float, float, float } %576, 2, !dbg !52
  %580 = extractvalue { float, float, float, float } %576, 3, !dbg !52
  %581 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %562, float %563, float %564, float %565, i32 %551, i32 %554, i32 %557, i32 %560, i32 %520, i32 %521) #9, !dbg !52
  %582 = extractvalue { float, float, float, float } %581, 0, !dbg !52
  %583 = extractvalue { float, float, float, float } %581, 1, !dbg !52
  %584 = extractvalue { float, float, float, float } %581, 2, !dbg !52
  %585 = extractvalue { float, float, float, float } %581, 3, !dbg !52
  %586 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %567, float %568, float %569, float %570, i32 %551, i32 %554, i32 %557, i32 %560, i32 %525, i32 %526) #9, !dbg !52
  %587 = extractvalue { float, float, float, float } %586, 0, !dbg !52
  %588 = extractvalue { float, float, float, float } %586, 1, !dbg !52
  %589 = extractvalue { float, float, float, float } %586, 2, !dbg !52
  %590 = extractvalue { float, float, float, float } %586, 3, !dbg !52
  %591 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %572, float %573, float %574, float %575, i32 %551, i32 %554, i32 %557, i32 %560, i32 %530, i32 %531) #9, !dbg !52
  %592 = extractvalue { float, float, float, float } %591, 0, !dbg !52
  %593 = extractvalue { float, float, float, float } %591, 1, !dbg !52
  %594 = extractvalue { float, float, float, float } %591, 2, !dbg !52
  %595 = extractvalue { float, float, float, float } %591, 3, !dbg !52
  %596 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %577, float %578, float %579, float %580, i32 %551, i32 %554, i32 %557, i32 %560, i32 %535, i32 %536) #9, !dbg !52
  %597 = extractvalue { float, float, float, float } %596, 0, !dbg !52
  %598 = extractvalue { float, float, float, float } %596, 1, !dbg !52
  %599 = extractvalue { float, float, float, float } %596, 2, !dbg !52
  %600 = extractvalue { float, float, float, float } %596, 3, !dbg !52
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 32, !dbg !28
  %601 = icmp samesign ult i64 %indvars.iv, 64, !dbg !28
  br i1 %601, label %154, label %602, !dbg !28

602:                                              ; preds = %__nv_exp2f.exit65
  %603 = tail call float @llvm.nvvm.div.full(float %582, float %467), !dbg !53
  %604 = tail call float @llvm.nvvm.div.full(float %583, float %467), !dbg !53
  %605 = tail call float @llvm.nvvm.div.full(float %584, float %468), !dbg !53
  %606 = tail call float @llvm.nvvm.div.full(float %585, float %468), !dbg !53
  %607 = tail call float @llvm.nvvm.div.full(float %587, float %467), !dbg !53
  %608 = tail call float @llvm.nvvm.div.full(float %588, float %467), !dbg !53
  %609 = tail call float @llvm.nvvm.div.full(float %589, float %468), !dbg !53
  %610 = tail call float @llvm.nvvm.div.full(float %590, float %468), !dbg !53
  %611 = tail call float @llvm.nvvm.div.full(float %592, float %467), !dbg !53
  %612 = tail call float @llvm.nvvm.div.full(float %593, float %467), !dbg !53
  %613 = tail call float @llvm.nvvm.div.full(float %594, float %468), !dbg !53
  %614 = tail call float @llvm.nvvm.div.full(float %595, float %468), !dbg !53
  %615 = tail call float @llvm.nvvm.div.full(float %597, float %467), !dbg !53
  %616 = tail call float @llvm.nvvm.div.full(float %598, float %467), !dbg !53
  %617 = tail call float @llvm.nvvm.div.full(float %599, float %468), !dbg !53
  %618 = tail call float @llvm.nvvm.div.full(float %600, float %468), !dbg !53
  %619 = getelementptr [4 x i8], ptr addrspace(1) %3, i64 %30, !dbg !54
  %620 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %40, !dbg !54
  %621 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %42, !dbg !54
  %622 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %44, !dbg !54
  %623 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %46, !dbg !54
  %624 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %48, !dbg !54
  %625 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %50, !dbg !54
  %626 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %52, !dbg !54
  %627 = getelementptr [4 x i8], ptr addrspace(1) %619, i64 %54, !dbg !54
  %628 = getelementptr [4 x i8], ptr addrspace(1) %620, i64 %57, !dbg !54
  %629 = getelementptr [4 x i8], ptr addrspace(1) %621, i64 %57, !dbg !54
  %630 = getelementptr [4 x i8], ptr addrspace(1) %622, i64 %57, !dbg !54
  %631 = getelementptr [4 x i8], ptr addrspace(1) %623, i64 %57, !dbg !54
  %632 = getelementptr [4 x i8], ptr addrspace(1) %624, i64 %57, !dbg !54
  %633 = getelementptr [4 x i8], ptr addrspace(1) %625, i64 %57, !dbg !54
  %634 = getelementptr [4 x i8], ptr addrspace(1) %626, i64 %57, !dbg !54
  %635 = getelementptr [4 x i8], ptr addrspace(1) %627, i64 %57, !dbg !54
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !55
  %636 = and i32 %11, 12, !dbg !55
  %637 = shl nuw nsw i32 %636, 8, !dbg !55
  %638 = and i32 %121, 96, !dbg !55
  %639 = and i32 %118, 384, !dbg !55
  %640 = shl nuw nsw i32 %636, 1, !dbg !55
  %641 = or disjoint i32 %637, %638, !dbg !55
  %642 = or disjoint i32 %639, %640, !dbg !55
  %643 = or disjoint i32 %641, %642, !dbg !55
  %644 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %643, !dbg !55
  %645 = insertelement <2 x float> poison, float %603, i64 0, !dbg !55
  %646 = insertelement <2 x float> %645, float %605, i64 1, !dbg !55
  store <2 x float> %646, ptr addrspace(3) %644, align 8, !dbg !55
  %647 = getelementptr inbounds nuw i8, ptr addrspace(3) %644, i32 512, !dbg !55
  %648 = insertelement <2 x float> poison, float %611, i64 0, !dbg !55
  %649 = insertelement <2 x float> %648, float %613, i64 1, !dbg !55
  store <2 x float> %649, ptr addrspace(3) %647, align 8, !dbg !55
  %650 = xor i32 %643, 8, !dbg !55
  %651 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %650, !dbg !55
  %652 = insertelement <2 x float> poison, float %604, i64 0, !dbg !55
  %653 = insertelement <2 x float> %652, float %606, i64 1, !dbg !55
  store <2 x float> %653, ptr addrspace(3) %651, align 8, !dbg !55
  %654 = getelementptr inbounds nuw i8, ptr addrspace(3) %651, i32 512, !dbg !55
  %655 = insertelement <2 x float> poison, float %612, i64 0, !dbg !55
  %656 = insertelement <2 x float> %655, float %614, i64 1, !dbg !55
  store <2 x float> %656, ptr addrspace(3) %654, align 8, !dbg !55
  %657 = xor i32 %643, 16, !dbg !55
  %658 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %657, !dbg !55
  %659 = insertelement <2 x float> poison, float %607, i64 0, !dbg !55
  %660 = insertelement <2 x float> %659, float %609, i64 1, !dbg !55
  store <2 x float> %660, ptr addrspace(3) %658, align 8, !dbg !55
  %661 = getelementptr inbounds nuw i8, ptr addrspace(3) %658, i32 512, !dbg !55
  %662 = insertelement <2 x float> poison, float %615, i64 0, !dbg !55
  %663 = insertelement <2 x float> %662, float %617, i64 1, !dbg !55
  store <2 x float> %663, ptr addrspace(3) %661, align 8, !dbg !55
  %664 = xor i32 %643, 24, !dbg !55
  %665 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %664, !dbg !55
  %666 = insertelement <2 x float> poison, float %608, i64 0, !dbg !55
  %667 = insertelement <2 x float> %666, float %610, i64 1, !dbg !55
  store <2 x float> %667, ptr addrspace(3) %665, align 8, !dbg !55
  %668 = getelementptr inbounds nuw i8, ptr addrspace(3) %665, i32 512, !dbg !55
  %669 = insertelement <2 x float> poison, float %616, i64 0, !dbg !55
  %670 = insertelement <2 x float> %669, float %618, i64 1, !dbg !55
  store <2 x float> %670, ptr addrspace(3) %668, align 8, !dbg !55
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !55
  %671 = and i32 %121, 3584, !dbg !55
  %672 = shl nuw nsw i32 %11, 4, !dbg !55
  %673 = and i32 %672, 96, !dbg !55
  %674 = lshr exact i32 %12, 2, !dbg !55
  %675 = and i32 %118, 8, !dbg !55
  %676 = and i32 %74, 16, !dbg !55
  %677 = or disjoint i32 %671, %673, !dbg !55
  %678 = xor i32 %674, %675, !dbg !55
  %679 = or disjoint i32 %677, %678, !dbg !55
  %680 = xor i32 %679, %676, !dbg !55
  %681 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %680, !dbg !55
  %682 = load <2 x i32>, ptr addrspace(3) %681, align 8, !dbg !55
  %683 = getelementptr inbounds nuw i8, ptr addrspace(3) %681, i32 128, !dbg !55
  %684 = load <2 x i32>, ptr addrspace(3) %683, align 8, !dbg !55
  %685 = getelementptr inbounds nuw i8, ptr addrspace(3) %681, i32 256, !dbg !55
  %686 = load <2 x i32>, ptr addrspace(3) %685, align 8, !dbg !55
  %687 = getelementptr inbounds nuw i8, ptr addrspace(3) %681, i32 384, !dbg !55
  %688 = load <2 x i32>, ptr addrspace(3) %687, align 8, !dbg !55
  %.extract = extractelement <2 x i32> %682, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract, ptr addrspace(1) %628) #9, !dbg !55
  %.extract8 = extractelement <2 x i32> %684, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract8, ptr addrspace(1) %629) #9, !dbg !55
  %.extract9 = extractelement <2 x i32> %682, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract9, ptr addrspace(1) %630) #9, !dbg !55
  %.extract10 = extractelement <2 x i32> %684, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract10, ptr addrspace(1) %631) #9, !dbg !55
  %.extract11 = extractelement <2 x i32> %686, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract11, ptr addrspace(1) %632) #9, !dbg !55
  %.extract12 = extractelement <2 x i32> %688, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract12, ptr addrspace(1) %633) #9, !dbg !55
  %.extract13 = extractelement <2 x i32> %686, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract13, ptr addrspace(1) %634) #9, !dbg !55
  %.extract14 = extractelement <2 x i32> %688, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract14, ptr addrspace(1) %635) #9, !dbg !55
  ret void, !dbg !56
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.div.full(float, float) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: convergent nocallback nofree nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) readonly captures(none)) #4

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #5

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #6

; Function Attrs: convergent nocallback nofree nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) readonly captures(none)) #4

declare i32 @__nvvm_reflect(ptr) local_unnamed_addr #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float) #8

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f32(float) #8

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { convergent nocallback nofree nounwind memory(argmem: read) }
attributes #5 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #7 = { "disable-tail-calls"="false" "frame-pointer"="all" "less-precise-fpmad"="false" "no-infs-fp-math"="false" "no-nans-fp-math"="false" "stack-protector-buffer-size"="8" "unsafe-fp-math"="false" "use-soft-float"="false" }
attributes #8 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #9 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!llvm.ident = !{!4}
!nvvmir.version = !{!5}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!5 = !{i32 2, i32 0}
!6 = distinct !DISubprogram(name: "attention", linkageName: "attention", scope: !1, file: !1, line: 82, type: !7, scopeLine: 82, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!7 = !DISubroutineType(cc: DW_CC_normal, types: !8)
!8 = !{null, !9, !9, !9, !11, !12, !13, !13}
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !10, size: 64, dwarfAddressSpace: 1)
!10 = !DIBasicType(name: "half", size: 16, encoding: DW_ATE_float)
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !12, size: 64, dwarfAddressSpace: 1)
!12 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !14, size: 64, dwarfAddressSpace: 1)
!14 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!15 = !DILocation(line: 87, column: 15, scope: !6)
!16 = !DILocation(line: 88, column: 9, scope: !6)
!17 = !DILocation(line: 89, column: 14, scope: !6)
!18 = !DILocation(line: 89, column: 29, scope: !6)
!19 = !DILocation(line: 92, column: 21, scope: !6)
!20 = !DILocation(line: 92, column: 17, scope: !6)
!21 = !DILocation(line: 92, column: 37, scope: !6)
!22 = !DILocation(line: 92, column: 59, scope: !6)
!23 = !DILocation(line: 92, column: 9, scope: !6)
!24 = !DILocation(line: 96, column: 16, scope: !6)
!25 = !DILocation(line: 98, column: 25, scope: !6)
!26 = !DILocation(line: 98, column: 21, scope: !6)
!27 = !DILocation(line: 104, column: 21, scope: !6)
!28 = !DILocation(line: 97, column: 5, scope: !6)
!29 = !DILocation(line: 98, column: 42, scope: !6)
!30 = !DILocation(line: 98, column: 41, scope: !6)
!31 = !DILocation(line: 98, column: 13, scope: !6)
!32 = !DILocation(line: 99, column: 14, scope: !6)
!33 = !DILocation(line: 196, column: 12, scope: !34, inlinedAt: !36)
!34 = distinct !DILexicalBlockFile(scope: !6, file: !35, discriminator: 0)
!35 = !DIFile(filename: "standard.py", directory: "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/triton/language")
!36 = !DILocation(line: 216, column: 16, scope: !34, inlinedAt: !37)
!37 = !DILocation(line: 100, column: 32, scope: !38)
!38 = distinct !DILexicalBlockFile(scope: !6, file: !1, discriminator: 0)
!39 = !DILocation(line: 100, column: 32, scope: !6)
!40 = !DILocation(line: 100, column: 16, scope: !6)
!41 = !DILocation(line: 101, column: 26, scope: !6)
!42 = !DILocation(line: 101, column: 13, scope: !6)
!43 = !DILocation(line: 102, column: 30, scope: !6)
!44 = !DILocation(line: 102, column: 17, scope: !6)
!45 = !DILocation(line: 103, column: 15, scope: !6)
!46 = !DILocation(line: 287, column: 12, scope: !34, inlinedAt: !47)
!47 = !DILocation(line: 314, column: 12, scope: !34, inlinedAt: !48)
!48 = !DILocation(line: 103, column: 29, scope: !38)
!49 = !DILocation(line: 104, column: 13, scope: !6)
!50 = !DILocation(line: 105, column: 15, scope: !6)
!51 = !DILocation(line: 106, column: 22, scope: !6)
!52 = !DILocation(line: 106, column: 15, scope: !6)
!53 = !DILocation(line: 108, column: 11, scope: !6)
!54 = !DILocation(line: 109, column: 14, scope: !6)
!55 = !DILocation(line: 109, column: 5, scope: !6)
!56 = !DILocation(line: 82, column: 1, scope: !6)
