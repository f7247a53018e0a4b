; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16
@.str = private unnamed_addr constant [11 x i8] c"__CUDA_FTZ\00", align 1

; Function Attrs: nounwind
define ptx_kernel void @attention(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, ptr addrspace(1) %3, float %4, ptr addrspace(1) nofree readnone captures(none) %5, ptr addrspace(1) nofree readnone captures(none) %6) local_unnamed_addr #0 !dbg !6 {
  %8 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !15
  %9 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !16
  %10 = shl i32 %8, 6, !dbg !17
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
  %40 = or disjoint i32 %32, 1024, !dbg !21
  %41 = or disjoint i32 %32, 1152, !dbg !21
  %42 = or disjoint i32 %32, 1280, !dbg !21
  %43 = or disjoint i32 %32, 1408, !dbg !21
  %44 = or disjoint i32 %32, 1536, !dbg !21
  %45 = or disjoint i32 %32, 1664, !dbg !21
  %46 = or disjoint i32 %32, 1792, !dbg !21
  %47 = or disjoint i32 %32, 1920, !dbg !21
  %48 = sext i32 %32 to i64, !dbg !20
  %49 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %48, !dbg !20
  %50 = sext i32 %33 to i64, !dbg !20
  %51 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %50, !dbg !20
  %52 = sext i32 %34 to i64, !dbg !20
  %53 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %52, !dbg !20
  %54 = sext i32 %35 to i64, !dbg !20
  %55 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %54, !dbg !20
  %56 = sext i32 %36 to i64, !dbg !20
  %57 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %56, !dbg !20
  %58 = sext i32 %37 to i64, !dbg !20
  %59 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %58, !dbg !20
  %60 = sext i32 %38 to i64, !dbg !20
  %61 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %60, !dbg !20
  %62 = sext i32 %39 to i64, !dbg !20
  %63 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %62, !dbg !20
  %64 = sext i32 %40 to i64, !dbg !20
  %65 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %64, !dbg !20
  %66 = sext i32 %41 to i64, !dbg !20
  %67 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %66, !dbg !20
  %68 = sext i32 %42 to i64, !dbg !20
  %69 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %68, !dbg !20
  %70 = sext i32 %43 to i64, !dbg !20
  %71 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %70, !dbg !20
  %72 = sext i32 %44 to i64, !dbg !20
  %73 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %72, !dbg !20
  %74 = sext i32 %45 to i64, !dbg !20
  %75 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %74, !dbg !20
  %76 = sext i32 %46 to i64, !dbg !20
  %77 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %76, !dbg !20
  %78 = sext i32 %47 to i64, !dbg !20
  %79 = getelementptr [2 x i8], ptr addrspace(1) %31, i64 %78, !dbg !20
  %80 = and i32 %11, 31, !dbg !22
  %81 = zext nneg i32 %80 to i64, !dbg !20
  %82 = getelementptr [2 x i8], ptr addrspace(1) %49, i64 %81, !dbg !20
  %83 = getelementptr [2 x i8], ptr addrspace(1) %51, i64 %81, !dbg !20
  %84 = getelementptr [2 x i8], ptr addrspace(1) %53, i64 %81, !dbg !20
  %85 = getelementptr [2 x i8], ptr addrspace(1) %55, i64 %81, !dbg !20
  %86 = getelementptr [2 x i8], ptr addrspace(1) %57, i64 %81, !dbg !20
  %87 = getelementptr [2 x i8], ptr addrspace(1) %59, i64 %81, !dbg !20
  %88 = getelementptr [2 x i8], ptr addrspace(1) %61, i64 %81, !dbg !20
  %89 = getelementptr [2 x i8], ptr addrspace(1) %63, i64 %81, !dbg !20
  %90 = getelementptr [2 x i8], ptr addrspace(1) %65, i64 %81, !dbg !20
  %91 = getelementptr [2 x i8], ptr addrspace(1) %67, i64 %81, !dbg !20
  %92 = getelementptr [2 x i8], ptr addrspace(1) %69, i64 %81, !dbg !20
  %93 = getelementptr [2 x i8], ptr addrspace(1) %71, i64 %81, !dbg !20
  %94 = getelementptr [2 x i8], ptr addrspace(1) %73, i64 %81, !dbg !20
  %95 = getelementptr [2 x i8], ptr addrspace(1) %75, i64 %81, !dbg !20
  %96 = getelementptr [2 x i8], ptr addrspace(1) %77, i64 %81, !dbg !20
  %97 = getelementptr [2 x i8], ptr addrspace(1) %79, i64 %81, !dbg !20
  %98 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %82) #11, !dbg !23
  %99 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %83) #11, !dbg !23
  %100 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %84) #11, !dbg !23
  %101 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %85) #11, !dbg !23
  %102 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %86) #11, !dbg !23
  %103 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %87) #11, !dbg !23
  %104 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %88) #11, !dbg !23
  %105 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %89) #11, !dbg !23
  %106 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %90) #11, !dbg !23
  %107 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %91) #11, !dbg !23
  %108 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %92) #11, !dbg !23
  %109 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %93) #11, !dbg !23
  %110 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %94) #11, !dbg !23
  %111 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %95) #11, !dbg !23
  %112 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %96) #11, !dbg !23
  %113 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %97) #11, !dbg !23
  %114 = shl nuw nsw i32 %11, 1, !dbg !23
  %115 = and i32 %114, 126, !dbg !23
  %116 = and i32 %11, 64, !dbg !23
  %117 = icmp eq i32 %116, 0, !dbg !23
  %118 = select i1 %117, i32 0, i32 144, !dbg !23
  %119 = xor i32 %118, %115, !dbg !23
  %120 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %119, !dbg !23
  %121 = insertelement <1 x i16> poison, i16 %98, i64 0, !dbg !23
  store <1 x i16> %121, ptr addrspace(3) %120, align 2, !dbg !23
  %122 = or disjoint i32 %119, 512, !dbg !23
  %123 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %122, !dbg !23
  %124 = insertelement <1 x i16> poison, i16 %100, i64 0, !dbg !23
  store <1 x i16> %124, ptr addrspace(3) %123, align 2, !dbg !23
  %125 = or disjoint i32 %119, 1024, !dbg !23
  %126 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %125, !dbg !23
  %127 = insertelement <1 x i16> poison, i16 %102, i64 0, !dbg !23
  store <1 x i16> %127, ptr addrspace(3) %126, align 2, !dbg !23
  %128 = or disjoint i32 %119, 1536, !dbg !23
  %129 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %128, !dbg !23
  %130 = insertelement <1 x i16> poison, i16 %104, i64 0, !dbg !23
  store <1 x i16> %130, ptr addrspace(3) %129, align 2, !dbg !23
  %131 = getelementptr inbounds nuw i8, ptr addrspace(3) %120, i32 2048, !dbg !23
  %132 = insertelement <1 x i16> poison, i16 %106, i64 0, !dbg !23
  store <1 x i16> %132, ptr addrspace(3) %131, align 2, !dbg !23
  %133 = getelementptr inbounds nuw i8, ptr addrspace(3) %120, i32 2560, !dbg !23
  %134 = insertelement <1 x i16> poison, i16 %108, i64 0, !dbg !23
  store <1 x i16> %134, ptr addrspace(3) %133, align 2, !dbg !23
  %135 = getelementptr inbounds nuw i8, ptr addrspace(3) %120, i32 3072, !dbg !23
  %136 = insertelement <1 x i16> poison, i16 %110, i64 0, !dbg !23
  store <1 x i16> %136, ptr addrspace(3) %135, align 2, !dbg !23
  %137 = getelementptr inbounds nuw i8, ptr addrspace(3) %120, i32 3584, !dbg !23
  %138 = insertelement <1 x i16> poison, i16 %112, i64 0, !dbg !23
  store <1 x i16> %138, ptr addrspace(3) %137, align 2, !dbg !23
  %139 = xor i32 %119, 288, !dbg !23
  %140 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %139, !dbg !23
  %141 = insertelement <1 x i16> poison, i16 %99, i64 0, !dbg !23
  store <1 x i16> %141, ptr addrspace(3) %140, align 2, !dbg !23
  %142 = or disjoint i32 %139, 512, !dbg !23
  %143 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %142, !dbg !23
  %144 = insertelement <1 x i16> poison, i16 %101, i64 0, !dbg !23
  store <1 x i16> %144, ptr addrspace(3) %143, align 2, !dbg !23
  %145 = or disjoint i32 %139, 1024, !dbg !23
  %146 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %145, !dbg !23
  %147 = insertelement <1 x i16> poison, i16 %103, i64 0, !dbg !23
  store <1 x i16> %147, ptr addrspace(3) %146, align 2, !dbg !23
  %148 = or disjoint i32 %139, 1536, !dbg !23
  %149 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %148, !dbg !23
  %150 = insertelement <1 x i16> poison, i16 %105, i64 0, !dbg !23
  store <1 x i16> %150, ptr addrspace(3) %149, align 2, !dbg !23
  %151 = getelementptr inbounds nuw i8, ptr addrspace(3) %140, i32 2048, !dbg !23
  %152 = insertelement <1 x i16> poison, i16 %107, i64 0, !dbg !23
  store <1 x i16> %152, ptr addrspace(3) %151, align 2, !dbg !23
  %153 = getelementptr inbounds nuw i8, ptr addrspace(3) %140, i32 2560, !dbg !23
  %154 = insertelement <1 x i16> poison, i16 %109, i64 0, !dbg !23
  store <1 x i16> %154, ptr addrspace(3) %153, align 2, !dbg !23
  %155 = getelementptr inbounds nuw i8, ptr addrspace(3) %140, i32 3072, !dbg !23
  %156 = insertelement <1 x i16> poison, i16 %111, i64 0, !dbg !23
  store <1 x i16> %156, ptr addrspace(3) %155, align 2, !dbg !23
  %157 = getelementptr inbounds nuw i8, ptr addrspace(3) %140, i32 3584, !dbg !23
  %158 = insertelement <1 x i16> poison, i16 %113, i64 0, !dbg !23
  store <1 x i16> %158, ptr addrspace(3) %157, align 2, !dbg !23
  %159 = fmul float %4, 0x3FF7154760000000, !dbg !24
  %160 = mul nuw nsw i32 %9, 3072, !dbg !25
  %161 = zext nneg i32 %160 to i64, !dbg !26
  %162 = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %161, !dbg !26
  %163 = getelementptr [2 x i8], ptr addrspace(1) %2, i64 %161, !dbg !27
  %invariant.gep = getelementptr [2 x i8], ptr addrspace(1) %162, i64 %81, !dbg !28
  %invariant.gep97 = getelementptr [2 x i8], ptr addrspace(1) %163, i64 %81, !dbg !28
  %164 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %119
  %165 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %122
  %166 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %125
  %167 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %128
  %168 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %139
  %169 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %142
  %170 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %145
  %171 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %148
  %172 = lshr exact i32 ptrtoint (ptr addrspace(3) @global_smem to i32), 4
  %173 = and i32 %172, 32767
  %174 = lshr exact i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096) to i32), 4
  %175 = and i32 %174, 32767
  %176 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %173, i64 0
  %177 = bitcast <2 x i32> %176 to i64
  %178 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %175, i64 0
  %179 = bitcast <2 x i32> %178 to i64
  %180 = add nuw nsw i32 %173, 2
  %181 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %180, i64 0
  %182 = bitcast <2 x i32> %181 to i64
  %183 = add nuw nsw i32 %175, 2
  %184 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %183, i64 0
  %185 = bitcast <2 x i32> %184 to i64
  %186 = add nuw nsw i32 %175, 64
  %187 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %186, i64 0
  %188 = bitcast <2 x i32> %187 to i64
  %189 = zext nneg i32 %13 to i64, !dbg !28
  %190 = zext nneg i32 %14 to i64, !dbg !28
  %191 = zext nneg i32 %15 to i64, !dbg !28
  %192 = zext nneg i32 %16 to i64, !dbg !28
  %193 = zext nneg i32 %17 to i64, !dbg !28
  %194 = zext nneg i32 %18 to i64, !dbg !28
  %195 = zext nneg i32 %19 to i64, !dbg !28
  %196 = zext nneg i32 %20 to i64, !dbg !28
  br label %197, !dbg !28

197:                                              ; preds = %7, %__nv_exp2f.exit81
  %indvars.iv = phi i64 [ 0, %7 ], [ %indvars.iv.next, %__nv_exp2f.exit81 ]
  %198 = phi float [ 0.000000e+00, %7 ], [ %600, %__nv_exp2f.exit81 ]
  %199 = phi float [ 0.000000e+00, %7 ], [ %601, %__nv_exp2f.exit81 ]
  %200 = phi float [ 0.000000e+00, %7 ], [ %602, %__nv_exp2f.exit81 ]
  %201 = phi float [ 0.000000e+00, %7 ], [ %603, %__nv_exp2f.exit81 ]
  %202 = phi float [ 0.000000e+00, %7 ], [ %604, %__nv_exp2f.exit81 ]
  %203 = phi float [ 0.000000e+00, %7 ], [ %605, %__nv_exp2f.exit81 ]
  %204 = phi float [ 0.000000e+00, %7 ], [ %606, %__nv_exp2f.exit81 ]
  %205 = phi float [ 0.000000e+00, %7 ], [ %607, %__nv_exp2f.exit81 ]
  %206 = phi float [ 0.000000e+00, %7 ], [ %608, %__nv_exp2f.exit81 ]
  %207 = phi float [ 0.000000e+00, %7 ], [ %609, %__nv_exp2f.exit81 ]
  %208 = phi float [ 0.000000e+00, %7 ], [ %610, %__nv_exp2f.exit81 ]
  %209 = phi float [ 0.000000e+00, %7 ], [ %611, %__nv_exp2f.exit81 ]
  %210 = phi float [ 0.000000e+00, %7 ], [ %612, %__nv_exp2f.exit81 ]
  %211 = phi float [ 0.000000e+00, %7 ], [ %613, %__nv_exp2f.exit81 ]
  %212 = phi float [ 0.000000e+00, %7 ], [ %614, %__nv_exp2f.exit81 ]
  %213 = phi float [ 0.000000e+00, %7 ], [ %615, %__nv_exp2f.exit81 ]
  %214 = phi float [ 0.000000e+00, %7 ], [ %491, %__nv_exp2f.exit81 ]
  %215 = phi float [ 0.000000e+00, %7 ], [ %492, %__nv_exp2f.exit81 ]
  %216 = phi float [ 0xFFF0000000000000, %7 ], [ %333, %__nv_exp2f.exit81 ]
  %217 = phi float [ 0xFFF0000000000000, %7 ], [ %334, %__nv_exp2f.exit81 ]
  %218 = or disjoint i64 %indvars.iv, %189, !dbg !29
  %219 = or disjoint i64 %indvars.iv, %190, !dbg !29
  %220 = or disjoint i64 %indvars.iv, %191, !dbg !29
  %221 = or disjoint i64 %indvars.iv, %192, !dbg !29
  %222 = or disjoint i64 %indvars.iv, %193, !dbg !29
  %223 = or disjoint i64 %indvars.iv, %194, !dbg !29
  %224 = or disjoint i64 %indvars.iv, %195, !dbg !29
  %225 = or disjoint i64 %indvars.iv, %196, !dbg !29
  %226 = shl nuw nsw i64 %218, 5, !dbg !30
  %227 = shl nuw nsw i64 %219, 5, !dbg !30
  %228 = shl nuw nsw i64 %220, 5, !dbg !30
  %229 = shl nuw nsw i64 %221, 5, !dbg !30
  %230 = shl nuw nsw i64 %222, 5, !dbg !30
  %231 = shl nuw nsw i64 %223, 5, !dbg !30
  %232 = shl nuw nsw i64 %224, 5, !dbg !30
  %233 = shl nuw nsw i64 %225, 5, !dbg !30
  %gep = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %226, !dbg !26
  %gep84 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %227, !dbg !26
  %gep86 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %228, !dbg !26
  %gep88 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %229, !dbg !26
  %gep90 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %230, !dbg !26
  %gep92 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %231, !dbg !26
  %gep94 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %232, !dbg !26
  %gep96 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %233, !dbg !26
  %234 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep) #11, !dbg !31
  %235 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep84) #11, !dbg !31
  %236 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep86) #11, !dbg !31
  %237 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep88) #11, !dbg !31
  %238 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep90) #11, !dbg !31
  %239 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep92) #11, !dbg !31
  %240 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep94) #11, !dbg !31
  %241 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep96) #11, !dbg !31
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !31
  %242 = insertelement <1 x i16> poison, i16 %234, i64 0, !dbg !31
  store <1 x i16> %242, ptr addrspace(3) %164, align 2, !dbg !31
  %243 = insertelement <1 x i16> poison, i16 %236, i64 0, !dbg !31
  store <1 x i16> %243, ptr addrspace(3) %165, align 2, !dbg !31
  %244 = insertelement <1 x i16> poison, i16 %238, i64 0, !dbg !31
  store <1 x i16> %244, ptr addrspace(3) %166, align 2, !dbg !31
  %245 = insertelement <1 x i16> poison, i16 %240, i64 0, !dbg !31
  store <1 x i16> %245, ptr addrspace(3) %167, align 2, !dbg !31
  %246 = insertelement <1 x i16> poison, i16 %235, i64 0, !dbg !31
  store <1 x i16> %246, ptr addrspace(3) %168, align 2, !dbg !31
  %247 = insertelement <1 x i16> poison, i16 %237, i64 0, !dbg !31
  store <1 x i16> %247, ptr addrspace(3) %169, align 2, !dbg !31
  %248 = insertelement <1 x i16> poison, i16 %239, i64 0, !dbg !31
  store <1 x i16> %248, ptr addrspace(3) %170, align 2, !dbg !31
  %249 = insertelement <1 x i16> poison, i16 %241, i64 0, !dbg !31
  store <1 x i16> %249, ptr addrspace(3) %171, align 2, !dbg !31
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta(), !dbg !32
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !32
  tail call void @llvm.nvvm.wgmma.fence.sync.aligned(), !dbg !32
  %250 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, $16, $17, 0, 1, 1, 0, 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,l,l"(i64 %177, i64 %179) #11, !dbg !32
  %251 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 0, !dbg !32
  %252 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 1, !dbg !32
  %253 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 2, !dbg !32
  %254 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 3, !dbg !32
  %255 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 4, !dbg !32
  %256 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 5, !dbg !32
  %257 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 6, !dbg !32
  %258 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 7, !dbg !32
  %259 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 8, !dbg !32
  %260 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 9, !dbg !32
  %261 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 10, !dbg !32
  %262 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 11, !dbg !32
  %263 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 12, !dbg !32
  %264 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 13, !dbg !32
  %265 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 14, !dbg !32
  %266 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %250, 15, !dbg !32
  %267 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, $32, $33, $34, 1, 1, 0, 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,l,l,b"(float %251, float %252, float %253, float %254, float %255, float %256, float %257, float %258, float %259, float %260, float %261, float %262, float %263, float %264, float %265, float %266, i64 %182, i64 %185, i1 true) #11, !dbg !32
  %268 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 0, !dbg !32
  %269 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 1, !dbg !32
  %270 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 2, !dbg !32
  %271 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 3, !dbg !32
  %272 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 4, !dbg !32
  %273 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 5, !dbg !32
  %274 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 6, !dbg !32
  %275 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 7, !dbg !32
  %276 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 8, !dbg !32
  %277 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 9, !dbg !32
  %278 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 10, !dbg !32
  %279 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 11, !dbg !32
  %280 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 12, !dbg !32
  %281 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 13, !dbg !32
  %282 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 14, !dbg !32
  %283 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %267, 15, !dbg !32
  tail call void @llvm.nvvm.wgmma.commit_group.sync.aligned(), !dbg !32
  %284 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } asm sideeffect "// wait for regs: $0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=l,=r,=r,=l,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21"(float %268, float %269, float %270, float %271, float %272, float %273, float %274, float %275, float %276, float %277, float %278, float %279, float %280, float %281, float %282, float %283, ptr addrspace(3) @global_smem, i32 0, i32 0, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 0, i32 0) #11, !dbg !32
  %285 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 0, !dbg !32
  %286 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 1, !dbg !32
  %287 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 2, !dbg !32
  %288 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 3, !dbg !32
  %289 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 4, !dbg !32
  %290 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 5, !dbg !32
  %291 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 6, !dbg !32
  %292 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 7, !dbg !32
  %293 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 8, !dbg !32
  %294 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 9, !dbg !32
  %295 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 10, !dbg !32
  %296 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 11, !dbg !32
  %297 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 12, !dbg !32
  %298 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 13, !dbg !32
  %299 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 14, !dbg !32
  %300 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %284, 15, !dbg !32
  %301 = tail call float @llvm.maxnum.f32(float %285, float %286), !dbg !33
  %302 = tail call float @llvm.maxnum.f32(float %289, float %290), !dbg !33
  %303 = tail call float @llvm.maxnum.f32(float %293, float %294), !dbg !33
  %304 = tail call float @llvm.maxnum.f32(float %297, float %298), !dbg !33
  %305 = tail call float @llvm.maxnum.f32(float %301, float %302), !dbg !33
  %306 = tail call float @llvm.maxnum.f32(float %303, float %304), !dbg !33
  %307 = tail call float @llvm.maxnum.f32(float %305, float %306), !dbg !33
  %308 = tail call float @llvm.maxnum.f32(float %287, float %288), !dbg !33
  %309 = tail call float @llvm.maxnum.f32(float %291, float %292), !dbg !33
  %310 = tail call float @llvm.maxnum.f32(float %295, float %296), !dbg !33
  %311 = tail call float @llvm.maxnum.f32(float %299, float %300), !dbg !33
  %312 = tail call float @llvm.maxnum.f32(float %308, float %309), !dbg !33
  %313 = tail call float @llvm.maxnum.f32(float %310, float %311), !dbg !33
  %314 = tail call float @llvm.maxnum.f32(float %312, float %313), !dbg !33
  %315 = bitcast float %307 to i32, !dbg !36
  %316 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %315, i32 2, i32 31), !dbg !36
  %317 = bitcast i32 %316 to float, !dbg !36
  %318 = tail call float @llvm.maxnum.f32(float %307, float %317), !dbg !33
  %319 = bitcast float %318 to i32, !dbg !36
  %320 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %319, i32 1, i32 31), !dbg !36
  %321 = bitcast i32 %320 to float, !dbg !36
  %322 = tail call float @llvm.maxnum.f32(float %318, float %321), !dbg !33
  %323 = bitcast float %314 to i32, !dbg !36
  %324 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %323, i32 2, i32 31), !dbg !36
  %325 = bitcast i32 %324 to float, !dbg !36
  %326 = tail call float @llvm.maxnum.f32(float %314, float %325), !dbg !33
  %327 = bitcast float %326 to i32, !dbg !36
  %328 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %327, i32 1, i32 31), !dbg !36
  %329 = bitcast i32 %328 to float, !dbg !36
  %330 = tail call float @llvm.maxnum.f32(float %326, float %329), !dbg !33
  %331 = fmul float %159, %322, !dbg !39
  %332 = fmul float %159, %330, !dbg !39
  %333 = tail call float @llvm.maxnum.f32(float %216, float %331), !dbg !40
  %334 = tail call float @llvm.maxnum.f32(float %217, float %332), !dbg !40
  %335 = fmul float %159, %285, !dbg !41
  %336 = fmul float %159, %286, !dbg !41
  %337 = fmul float %159, %287, !dbg !41
  %338 = fmul float %159, %288, !dbg !41
  %339 = fmul float %159, %289, !dbg !41
  %340 = fmul float %159, %290, !dbg !41
  %341 = fmul float %159, %291, !dbg !41
  %342 = fmul float %159, %292, !dbg !41
  %343 = fmul float %159, %293, !dbg !41
  %344 = fmul float %159, %294, !dbg !41
  %345 = fmul float %159, %295, !dbg !41
  %346 = fmul float %159, %296, !dbg !41
  %347 = fmul float %159, %297, !dbg !41
  %348 = fmul float %159, %298, !dbg !41
  %349 = fmul float %159, %299, !dbg !41
  %350 = fmul float %159, %300, !dbg !41
  %351 = fsub float %335, %333, !dbg !41
  %352 = fsub float %336, %333, !dbg !41
  %353 = fsub float %337, %334, !dbg !41
  %354 = fsub float %338, %334, !dbg !41
  %355 = fsub float %339, %333, !dbg !41
  %356 = fsub float %340, %333, !dbg !41
  %357 = fsub float %341, %334, !dbg !41
  %358 = fsub float %342, %334, !dbg !41
  %359 = fsub float %343, %333, !dbg !41
  %360 = fsub float %344, %333, !dbg !41
  %361 = fsub float %345, %334, !dbg !41
  %362 = fsub float %346, %334, !dbg !41
  %363 = fsub float %347, %333, !dbg !41
  %364 = fsub float %348, %333, !dbg !41
  %365 = fsub float %349, %334, !dbg !41
  %366 = fsub float %350, %334, !dbg !41
  %367 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i = icmp eq i32 %367, 0, !dbg !42
  br i1 %.not.i, label %370, label %368, !dbg !42

368:                                              ; preds = %197
  %369 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %351), !dbg !42
  br label %__nv_exp2f.exit, !dbg !42

370:                                              ; preds = %197
  %371 = tail call float @llvm.nvvm.ex2.approx.f32(float %351), !dbg !42
  br label %__nv_exp2f.exit, !dbg !42

__nv_exp2f.exit:                                  ; preds = %368, %370
  %.0.i = phi float [ %369, %368 ], [ %371, %370 ], !dbg !42
  %372 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i31 = icmp eq i32 %372, 0, !dbg !42
  br i1 %.not.i31, label %375, label %373, !dbg !42

373:                                              ; preds = %__nv_exp2f.exit
  %374 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %352), !dbg !42
  br label %__nv_exp2f.exit33, !dbg !42

375:                                              ; preds = %__nv_exp2f.exit
  %376 = tail call float @llvm.nvvm.ex2.approx.f32(float %352), !dbg !42
  br label %__nv_exp2f.exit33, !dbg !42

__nv_exp2f.exit33:                                ; preds = %373, %375
  %.0.i32 = phi float [ %374, %373 ], [ %376, %375 ], !dbg !42
  %377 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i34 = icmp eq i32 %377, 0, !dbg !42
  br i1 %.not.i34, label %380, label %378, !dbg !42

378:                                              ; preds = %__nv_exp2f.exit33
  %379 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %353), !dbg !42
  br label %__nv_exp2f.exit36, !dbg !42

380:                                              ; preds = %__nv_exp2f.exit33
  %381 = tail call float @llvm.nvvm.ex2.approx.f32(float %353), !dbg !42
  br label %__nv_exp2f.exit36, !dbg !42

__nv_exp2f.exit36:                                ; preds = %378, %380
  %.0.i35 = phi float [ %379, %378 ], [ %381, %380 ], !dbg !42
  %382 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i37 = icmp eq i32 %382, 0, !dbg !42
  br i1 %.not.i37, label %385, label %383, !dbg !42

383:                                              ; preds = %__nv_exp2f.exit36
  %384 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %354), !dbg !42
  br label %__nv_exp2f.exit39, !dbg !42

385:                                              ; preds = %__nv_exp2f.exit36
  %386 = tail call float @llvm.nvvm.ex2.approx.f32(float %354), !dbg !42
  br label %__nv_exp2f.exit39, !dbg !42

__nv_exp2f.exit39:                                ; preds = %383, %385
  %.0.i38 = phi float [ %384, %383 ], [ %386, %385 ], !dbg !42
  %387 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i40 = icmp eq i32 %387, 0, !dbg !42
  br i1 %.not.i40, label %390, label %388, !dbg !42

388:                                              ; preds = %__nv_exp2f.exit39
  %389 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %355), !dbg !42
  br label %__nv_exp2f.exit42, !dbg !42

390:                                              ; preds = %__nv_exp2f.exit39
  %391 = tail call float @llvm.nvvm.ex2.approx.f32(float %355), !dbg !42
  br label %__nv_exp2f.exit42, !dbg !42

__nv_exp2f.exit42:                                ; preds = %388, %390
  %.0.i41 = phi float [ %389, %388 ], [ %391, %390 ], !dbg !42
  %392 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i43 = icmp eq i32 %392, 0, !dbg !42
  br i1 %.not.i43, label %395, label %393, !dbg !42

393:                                              ; preds = %__nv_exp2f.exit42
  %394 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %356), !dbg !42
  br label %__nv_exp2f.exit45, !dbg !42

395:                                              ; preds = %__nv_exp2f.exit42
  %396 = tail call float @llvm.nvvm.ex2.approx.f32(float %356), !dbg !42
  br label %__nv_exp2f.exit45, !dbg !42

__nv_exp2f.exit45:                                ; preds = %393, %395
  %.0.i44 = phi float [ %394, %393 ], [ %396, %395 ], !dbg !42
  %397 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i46 = icmp eq i32 %397, 0, !dbg !42
  br i1 %.not.i46, label %400, label %398, !dbg !42

398:                                              ; preds = %__nv_exp2f.exit45
  %399 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %357), !dbg !42
  br label %__nv_exp2f.exit48, !dbg !42

400:                                              ; preds = %__nv_exp2f.exit45
  %401 = tail call float @llvm.nvvm.ex2.approx.f32(float %357), !dbg !42
  br label %__nv_exp2f.exit48, !dbg !42

__nv_exp2f.exit48:                                ; preds = %398, %400
  %.0.i47 = phi float [ %399, %398 ], [ %401, %400 ], !dbg !42
  %402 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i49 = icmp eq i32 %402, 0, !dbg !42
  br i1 %.not.i49, label %405, label %403, !dbg !42

403:                                              ; preds = %__nv_exp2f.exit48
  %404 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %358), !dbg !42
  br label %__nv_exp2f.exit51, !dbg !42

405:                                              ; preds = %__nv_exp2f.exit48
  %406 = tail call float @llvm.nvvm.ex2.approx.f32(float %358), !dbg !42
  br label %__nv_exp2f.exit51, !dbg !42

__nv_exp2f.exit51:                                ; preds = %403, %405
  %.0.i50 = phi float [ %404, %403 ], [ %406, %405 ], !dbg !42
  %407 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i52 = icmp eq i32 %407, 0, !dbg !42
  br i1 %.not.i52, label %410, label %408, !dbg !42

408:                                              ; preds = %__nv_exp2f.exit51
  %409 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %359), !dbg !42
  br label %__nv_exp2f.exit54, !dbg !42

410:                                              ; preds = %__nv_exp2f.exit51
  %411 = tail call float @llvm.nvvm.ex2.approx.f32(float %359), !dbg !42
  br label %__nv_exp2f.exit54, !dbg !42

__nv_exp2f.exit54:                                ; preds = %408, %410
  %.0.i53 = phi float [ %409, %408 ], [ %411, %410 ], !dbg !42
  %412 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i55 = icmp eq i32 %412, 0, !dbg !42
  br i1 %.not.i55, label %415, label %413, !dbg !42

413:                                              ; preds = %__nv_exp2f.exit54
  %414 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %360), !dbg !42
  br label %__nv_exp2f.exit57, !dbg !42

415:                                              ; preds = %__nv_exp2f.exit54
  %416 = tail call float @llvm.nvvm.ex2.approx.f32(float %360), !dbg !42
  br label %__nv_exp2f.exit57, !dbg !42

__nv_exp2f.exit57:                                ; preds = %413, %415
  %.0.i56 = phi float [ %414, %413 ], [ %416, %415 ], !dbg !42
  %417 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i58 = icmp eq i32 %417, 0, !dbg !42
  br i1 %.not.i58, label %420, label %418, !dbg !42

418:                                              ; preds = %__nv_exp2f.exit57
  %419 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %361), !dbg !42
  br label %__nv_exp2f.exit60, !dbg !42

420:                                              ; preds = %__nv_exp2f.exit57
  %421 = tail call float @llvm.nvvm.ex2.approx.f32(float %361), !dbg !42
  br label %__nv_exp2f.exit60, !dbg !42

__nv_exp2f.exit60:                                ; preds = %418, %420
  %.0.i59 = phi float [ %419, %418 ], [ %421, %420 ], !dbg !42
  %422 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i61 = icmp eq i32 %422, 0, !dbg !42
  br i1 %.not.i61, label %425, label %423, !dbg !42

423:                                              ; preds = %__nv_exp2f.exit60
  %424 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %362), !dbg !42
  br label %__nv_exp2f.exit63, !dbg !42

425:                                              ; preds = %__nv_exp2f.exit60
  %426 = tail call float @llvm.nvvm.ex2.approx.f32(float %362), !dbg !42
  br label %__nv_exp2f.exit63, !dbg !42

__nv_exp2f.exit63:                                ; preds = %423, %425
  %.0.i62 = phi float [ %424, %423 ], [ %426, %425 ], !dbg !42
  %427 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i64 = icmp eq i32 %427, 0, !dbg !42
  br i1 %.not.i64, label %430, label %428, !dbg !42

428:                                              ; preds = %__nv_exp2f.exit63
  %429 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %363), !dbg !42
  br label %__nv_exp2f.exit66, !dbg !42

430:                                              ; preds = %__nv_exp2f.exit63
  %431 = tail call float @llvm.nvvm.ex2.approx.f32(float %363), !dbg !42
  br label %__nv_exp2f.exit66, !dbg !42

__nv_exp2f.exit66:                                ; preds = %428, %430
  %.0.i65 = phi float [ %429, %428 ], [ %431, %430 ], !dbg !42
  %432 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i67 = icmp eq i32 %432, 0, !dbg !42
  br i1 %.not.i67, label %435, label %433, !dbg !42

433:                                              ; preds = %__nv_exp2f.exit66
  %434 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %364), !dbg !42
  br label %__nv_exp2f.exit69, !dbg !42

435:                                              ; preds = %__nv_exp2f.exit66
  %436 = tail call float @llvm.nvvm.ex2.approx.f32(float %364), !dbg !42
  br label %__nv_exp2f.exit69, !dbg !42

__nv_exp2f.exit69:                                ; preds = %433, %435
  %.0.i68 = phi float [ %434, %433 ], [ %436, %435 ], !dbg !42
  %437 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i70 = icmp eq i32 %437, 0, !dbg !42
  br i1 %.not.i70, label %440, label %438, !dbg !42

438:                                              ; preds = %__nv_exp2f.exit69
  %439 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %365), !dbg !42
  br label %__nv_exp2f.exit72, !dbg !42

440:                                              ; preds = %__nv_exp2f.exit69
  %441 = tail call float @llvm.nvvm.ex2.approx.f32(float %365), !dbg !42
  br label %__nv_exp2f.exit72, !dbg !42

__nv_exp2f.exit72:                                ; preds = %438, %440
  %.0.i71 = phi float [ %439, %438 ], [ %441, %440 ], !dbg !42
  %442 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !42
  %.not.i73 = icmp eq i32 %442, 0, !dbg !42
  br i1 %.not.i73, label %445, label %443, !dbg !42

443:                                              ; preds = %__nv_exp2f.exit72
  %444 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %366), !dbg !42
  br label %__nv_exp2f.exit75, !dbg !42

445:                                              ; preds = %__nv_exp2f.exit72
  %446 = tail call float @llvm.nvvm.ex2.approx.f32(float %366), !dbg !42
  br label %__nv_exp2f.exit75, !dbg !42

__nv_exp2f.exit75:                                ; preds = %443, %445
  %.0.i74 = phi float [ %444, %443 ], [ %446, %445 ], !dbg !42
  %447 = fsub float %216, %333, !dbg !43
  %448 = fsub float %217, %334, !dbg !43
  %449 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !44
  %.not.i76 = icmp eq i32 %449, 0, !dbg !44
  br i1 %.not.i76, label %452, label %450, !dbg !44

450:                                              ; preds = %__nv_exp2f.exit75
  %451 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %447), !dbg !44
  br label %__nv_exp2f.exit78, !dbg !44

452:                                              ; preds = %__nv_exp2f.exit75
  %453 = tail call float @llvm.nvvm.ex2.approx.f32(float %447), !dbg !44
  br label %__nv_exp2f.exit78, !dbg !44

__nv_exp2f.exit78:                                ; preds = %450, %452
  %.0.i77 = phi float [ %451, %450 ], [ %453, %452 ], !dbg !44
  %454 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #11, !dbg !44
  %.not.i79 = icmp eq i32 %454, 0, !dbg !44
  br i1 %.not.i79, label %457, label %455, !dbg !44

455:                                              ; preds = %__nv_exp2f.exit78
  %456 = tail call float @llvm.nvvm.ex2.approx.ftz.f32(float %448), !dbg !44
  br label %__nv_exp2f.exit81, !dbg !44

457:                                              ; preds = %__nv_exp2f.exit78
  %458 = tail call float @llvm.nvvm.ex2.approx.f32(float %448), !dbg !44
  br label %__nv_exp2f.exit81, !dbg !44

__nv_exp2f.exit81:                                ; preds = %455, %457
  %.0.i80 = phi float [ %456, %455 ], [ %458, %457 ], !dbg !44
  %459 = fmul float %214, %.0.i77, !dbg !45
  %460 = fmul float %215, %.0.i80, !dbg !45
  %461 = fadd float %.0.i, %.0.i32, !dbg !46
  %462 = fadd float %.0.i41, %.0.i44, !dbg !46
  %463 = fadd float %.0.i53, %.0.i56, !dbg !46
  %464 = fadd float %.0.i65, %.0.i68, !dbg !46
  %465 = fadd float %461, %462, !dbg !46
  %466 = fadd float %463, %464, !dbg !46
  %467 = fadd float %465, %466, !dbg !46
  %468 = fadd float %.0.i35, %.0.i38, !dbg !46
  %469 = fadd float %.0.i47, %.0.i50, !dbg !46
  %470 = fadd float %.0.i59, %.0.i62, !dbg !46
  %471 = fadd float %.0.i71, %.0.i74, !dbg !46
  %472 = fadd float %468, %469, !dbg !46
  %473 = fadd float %470, %471, !dbg !46
  %474 = fadd float %472, %473, !dbg !46
  %475 = bitcast float %467 to i32, !dbg !47
  %476 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %475, i32 2, i32 31), !dbg !47
  %477 = bitcast i32 %476 to float, !dbg !47
  %478 = fadd float %467, %477, !dbg !46
  %479 = bitcast float %478 to i32, !dbg !47
  %480 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %479, i32 1, i32 31), !dbg !47
  %481 = bitcast i32 %480 to float, !dbg !47
  %482 = fadd float %478, %481, !dbg !46
  %483 = bitcast float %474 to i32, !dbg !47
  %484 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %483, i32 2, i32 31), !dbg !47
  %485 = bitcast i32 %484 to float, !dbg !47
  %486 = fadd float %474, %485, !dbg !46
  %487 = bitcast float %486 to i32, !dbg !47
  %488 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %487, i32 1, i32 31), !dbg !47
  %489 = bitcast i32 %488 to float, !dbg !47
  %490 = fadd float %486, %489, !dbg !46
  %491 = fadd float %459, %482, !dbg !45
  %492 = fadd float %460, %490, !dbg !45
  %gep98 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %226, !dbg !27
  %gep100 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %227, !dbg !27
  %gep102 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %228, !dbg !27
  %gep104 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %229, !dbg !27
  %gep106 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %230, !dbg !27
  %gep108 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %231, !dbg !27
  %gep110 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %232, !dbg !27
  %gep112 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep97, i64 %233, !dbg !27
  %493 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep98) #11, !dbg !49
  %494 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep100) #11, !dbg !49
  %495 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep102) #11, !dbg !49
  %496 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep104) #11, !dbg !49
  %497 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep106) #11, !dbg !49
  %498 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep108) #11, !dbg !49
  %499 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep110) #11, !dbg !49
  %500 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b16 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(1) %gep112) #11, !dbg !49
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !49
  %501 = insertelement <1 x i16> poison, i16 %493, i64 0, !dbg !49
  store <1 x i16> %501, ptr addrspace(3) %164, align 2, !dbg !49
  %502 = insertelement <1 x i16> poison, i16 %495, i64 0, !dbg !49
  store <1 x i16> %502, ptr addrspace(3) %165, align 2, !dbg !49
  %503 = insertelement <1 x i16> poison, i16 %497, i64 0, !dbg !49
  store <1 x i16> %503, ptr addrspace(3) %166, align 2, !dbg !49
  %504 = insertelement <1 x i16> poison, i16 %499, i64 0, !dbg !49
  store <1 x i16> %504, ptr addrspace(3) %167, align 2, !dbg !49
  %505 = insertelement <1 x i16> poison, i16 %494, i64 0, !dbg !49
  store <1 x i16> %505, ptr addrspace(3) %168, align 2, !dbg !49
  %506 = insertelement <1 x i16> poison, i16 %496, i64 0, !dbg !49
  store <1 x i16> %506, ptr addrspace(3) %169, align 2, !dbg !49
  %507 = insertelement <1 x i16> poison, i16 %498, i64 0, !dbg !49
  store <1 x i16> %507, ptr addrspace(3) %170, align 2, !dbg !49
  %508 = insertelement <1 x i16> poison, i16 %500, i64 0, !dbg !49
  store <1 x i16> %508, ptr addrspace(3) %171, align 2, !dbg !49
  %509 = fmul float %198, %.0.i77, !dbg !50
  %510 = fmul float %199, %.0.i77, !dbg !50
  %511 = fmul float %200, %.0.i80, !dbg !50
  %512 = fmul float %201, %.0.i80, !dbg !50
  %513 = fmul float %202, %.0.i77, !dbg !50
  %514 = fmul float %203, %.0.i77, !dbg !50
  %515 = fmul float %204, %.0.i80, !dbg !50
  %516 = fmul float %205, %.0.i80, !dbg !50
  %517 = fmul float %206, %.0.i77, !dbg !50
  %518 = fmul float %207, %.0.i77, !dbg !50
  %519 = fmul float %208, %.0.i80, !dbg !50
  %520 = fmul float %209, %.0.i80, !dbg !50
  %521 = fmul float %210, %.0.i77, !dbg !50
  %522 = fmul float %211, %.0.i77, !dbg !50
  %523 = fmul float %212, %.0.i80, !dbg !50
  %524 = fmul float %213, %.0.i80, !dbg !50
  %525 = insertelement <2 x float> poison, float %.0.i, i64 0, !dbg !51
  %526 = insertelement <2 x float> %525, float %.0.i32, i64 1, !dbg !51
  %527 = fptrunc <2 x float> %526 to <2 x half>, !dbg !51
  %528 = insertelement <2 x float> poison, float %.0.i35, i64 0, !dbg !51
  %529 = insertelement <2 x float> %528, float %.0.i38, i64 1, !dbg !51
  %530 = fptrunc <2 x float> %529 to <2 x half>, !dbg !51
  %531 = insertelement <2 x float> poison, float %.0.i41, i64 0, !dbg !51
  %532 = insertelement <2 x float> %531, float %.0.i44, i64 1, !dbg !51
  %533 = fptrunc <2 x float> %532 to <2 x half>, !dbg !51
  %534 = insertelement <2 x float> poison, float %.0.i47, i64 0, !dbg !51
  %535 = insertelement <2 x float> %534, float %.0.i50, i64 1, !dbg !51
  %536 = fptrunc <2 x float> %535 to <2 x half>, !dbg !51
  %537 = insertelement <2 x float> poison, float %.0.i53, i64 0, !dbg !51
  %538 = insertelement <2 x float> %537, float %.0.i56, i64 1, !dbg !51
  %539 = fptrunc <2 x float> %538 to <2 x half>, !dbg !51
  %540 = insertelement <2 x float> poison, float %.0.i59, i64 0, !dbg !51
  %541 = insertelement <2 x float> %540, float %.0.i62, i64 1, !dbg !51
  %542 = fptrunc <2 x float> %541 to <2 x half>, !dbg !51
  %543 = insertelement <2 x float> poison, float %.0.i65, i64 0, !dbg !51
  %544 = insertelement <2 x float> %543, float %.0.i68, i64 1, !dbg !51
  %545 = fptrunc <2 x float> %544 to <2 x half>, !dbg !51
  %546 = insertelement <2 x float> poison, float %.0.i71, i64 0, !dbg !51
  %547 = insertelement <2 x float> %546, float %.0.i74, i64 1, !dbg !51
  %548 = fptrunc <2 x float> %547 to <2 x half>, !dbg !51
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta(), !dbg !52
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !52
  %549 = bitcast <2 x half> %527 to i32, !dbg !52
  %550 = bitcast <2 x half> %530 to i32, !dbg !52
  %551 = bitcast <2 x half> %533 to i32, !dbg !52
  %552 = bitcast <2 x half> %536 to i32, !dbg !52
  %553 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %549) #11, !dbg !52
  %554 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %550) #11, !dbg !52
  %555 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %551) #11, !dbg !52
  %556 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %552) #11, !dbg !52
  %557 = bitcast <2 x half> %539 to i32, !dbg !52
  %558 = bitcast <2 x half> %542 to i32, !dbg !52
  %559 = bitcast <2 x half> %545 to i32, !dbg !52
  %560 = bitcast <2 x half> %548 to i32, !dbg !52
  %561 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %557) #11, !dbg !52
  %562 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %558) #11, !dbg !52
  %563 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %559) #11, !dbg !52
  %564 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %560) #11, !dbg !52
  tail call void @llvm.nvvm.wgmma.fence.sync.aligned(), !dbg !52
  %565 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, {$32,$33,$34,$35}, $36, $37, 1, 1, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,b"(float %509, float %510, float %511, float %512, float %513, float %514, float %515, float %516, float %517, float %518, float %519, float %520, float %521, float %522, float %523, float %524, i32 %553, i32 %554, i32 %555, i32 %556, i64 %179, i1 true) #11, !dbg !52
  %566 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 0, !dbg !52
  %567 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 1, !dbg !52
  %568 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 2, !dbg !52
  %569 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 3, !dbg !52
  %570 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 4, !dbg !52
  %571 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 5, !dbg !52
  %572 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 6, !dbg !52
  %573 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 7, !dbg !52
  %574 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 8, !dbg !52
  %575 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 9, !dbg !52
  %576 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 10, !dbg !52
  %577 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 11, !dbg !52
  %578 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 12, !dbg !52
  %579 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 13, !dbg !52
  %580 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 14, !dbg !52
  %581 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %565, 15, !dbg !52
  %582 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, {$32,$33,$34,$35}, $36, $37, 1, 1, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,b"(float %566, float %567, float %568, float %569, float %570, float %571, float %572, float %573, float %574, float %575, float %576, float %577, float %578, float %579, float %580, float %581, i32 %561, i32 %562, i32 %563, i32 %564, i64 %188, i1 true) #11, !dbg !52
  %583 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 0, !dbg !52
  %584 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 1, !dbg !52
  %585 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 2, !dbg !52
  %586 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 3, !dbg !52
  %587 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 4, !dbg !52
  %588 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 5, !dbg !52
  %589 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 6, !dbg !52
  %590 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 7, !dbg !52
  %591 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 8, !dbg !52
  %592 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 9, !dbg !52
  %593 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 10, !dbg !52
  %594 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 11, !dbg !52
  %595 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 12, !dbg !52
  %596 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 13, !dbg !52
  %597 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 14, !dbg !52
  %598 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %582, 15, !dbg !52
  tail call void @llvm.nvvm.wgmma.commit_group.sync.aligned(), !dbg !52
  %599 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } asm sideeffect "// wait for regs: $0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=l,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18"(float %583, float %584, float %585, float %586, float %587, float %588, float %589, float %590, float %591, float %592, float %593, float %594, float %595, float %596, float %597, float %598, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 0, i32 0) #11, !dbg !52
  %600 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 0, !dbg !52
  %601 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 1, !dbg !52
  %602 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 2, !dbg !52
  %603 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 3, !dbg !52
  %604 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 4, !dbg !52
  %605 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 5, !dbg !52
  %606 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 6, !dbg !52
  %607 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 7, !dbg !52
  %608 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 8, !dbg !52
  %609 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 9, !dbg !52
  %610 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 10, !dbg !52
  %611 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 11, !dbg !52
  %612 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 12, !dbg !52
  %613 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 13, !dbg !52
  %614 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 14, !dbg !52
  %615 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32 } %599, 15, !dbg !52
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 32, !dbg !28
  %616 = icmp samesign ult i64 %indvars.iv, 64, !dbg !28
  br i1 %616, label %197, label %617, !dbg !28

617:                                              ; preds = %__nv_exp2f.exit81
  %618 = tail call float @llvm.nvvm.div.full(float %600, float %491), !dbg !53
  %619 = tail call float @llvm.nvvm.div.full(float %601, float %491), !dbg !53
  %620 = tail call float @llvm.nvvm.div.full(float %602, float %492), !dbg !53
  %621 = tail call float @llvm.nvvm.div.full(float %603, float %492), !dbg !53
  %622 = tail call float @llvm.nvvm.div.full(float %604, float %491), !dbg !53
  %623 = tail call float @llvm.nvvm.div.full(float %605, float %491), !dbg !53
  %624 = tail call float @llvm.nvvm.div.full(float %606, float %492), !dbg !53
  %625 = tail call float @llvm.nvvm.div.full(float %607, float %492), !dbg !53
  %626 = tail call float @llvm.nvvm.div.full(float %608, float %491), !dbg !53
  %627 = tail call float @llvm.nvvm.div.full(float %609, float %491), !dbg !53
  %628 = tail call float @llvm.nvvm.div.full(float %610, float %492), !dbg !53
  %629 = tail call float @llvm.nvvm.div.full(float %611, float %492), !dbg !53
  %630 = tail call float @llvm.nvvm.div.full(float %612, float %491), !dbg !53
  %631 = tail call float @llvm.nvvm.div.full(float %613, float %491), !dbg !53
  %632 = tail call float @llvm.nvvm.div.full(float %614, float %492), !dbg !53
  %633 = tail call float @llvm.nvvm.div.full(float %615, float %492), !dbg !53
  %634 = getelementptr [4 x i8], ptr addrspace(1) %3, i64 %30, !dbg !54
  %635 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %48, !dbg !54
  %636 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %50, !dbg !54
  %637 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %52, !dbg !54
  %638 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %54, !dbg !54
  %639 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %56, !dbg !54
  %640 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %58, !dbg !54
  %641 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %60, !dbg !54
  %642 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %62, !dbg !54
  %643 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %64, !dbg !54
  %644 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %66, !dbg !54
  %645 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %68, !dbg !54
  %646 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %70, !dbg !54
  %647 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %72, !dbg !54
  %648 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %74, !dbg !54
  %649 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %76, !dbg !54
  %650 = getelementptr [4 x i8], ptr addrspace(1) %634, i64 %78, !dbg !54
  %651 = getelementptr [4 x i8], ptr addrspace(1) %635, i64 %81, !dbg !54
  %652 = getelementptr [4 x i8], ptr addrspace(1) %636, i64 %81, !dbg !54
  %653 = getelementptr [4 x i8], ptr addrspace(1) %637, i64 %81, !dbg !54
  %654 = getelementptr [4 x i8], ptr addrspace(1) %638, i64 %81, !dbg !54
  %655 = getelementptr [4 x i8], ptr addrspace(1) %639, i64 %81, !dbg !54
  %656 = getelementptr [4 x i8], ptr addrspace(1) %640, i64 %81, !dbg !54
  %657 = getelementptr [4 x i8], ptr addrspace(1) %641, i64 %81, !dbg !54
  %658 = getelementptr [4 x i8], ptr addrspace(1) %642, i64 %81, !dbg !54
  %659 = getelementptr [4 x i8], ptr addrspace(1) %643, i64 %81, !dbg !54
  %660 = getelementptr [4 x i8], ptr addrspace(1) %644, i64 %81, !dbg !54
  %661 = getelementptr [4 x i8], ptr addrspace(1) %645, i64 %81, !dbg !54
  %662 = getelementptr [4 x i8], ptr addrspace(1) %646, i64 %81, !dbg !54
  %663 = getelementptr [4 x i8], ptr addrspace(1) %647, i64 %81, !dbg !54
  %664 = getelementptr [4 x i8], ptr addrspace(1) %648, i64 %81, !dbg !54
  %665 = getelementptr [4 x i8], ptr addrspace(1) %649, i64 %81, !dbg !54
  %666 = getelementptr [4 x i8], ptr addrspace(1) %650, i64 %81, !dbg !54
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !55
  %667 = shl nuw nsw i32 %11, 5, !dbg !55
  %668 = insertelement <4 x i32> poison, i32 %667, i64 0, !dbg !55
  %669 = insertelement <4 x i32> %668, i32 %11, i64 1, !dbg !55
  %670 = shufflevector <4 x i32> %669, <4 x i32> poison, <4 x i32> <i32 0, i32 1, i32 1, i32 1>, !dbg !55
  %671 = and <4 x i32> %670, <i32 96, i32 12, i32 112, i32 12>, !dbg !55
  %672 = shl nuw nsw <4 x i32> %671, <i32 0, i32 1, i32 3, i32 9>, !dbg !55
  %673 = tail call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %672), !dbg !55
  %674 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %673, !dbg !55
  %675 = insertelement <2 x float> poison, float %618, i64 0, !dbg !55
  %676 = insertelement <2 x float> %675, float %620, i64 1, !dbg !55
  store <2 x float> %676, ptr addrspace(3) %674, align 8, !dbg !55
  %677 = getelementptr inbounds nuw i8, ptr addrspace(3) %674, i32 1024, !dbg !55
  %678 = insertelement <2 x float> poison, float %626, i64 0, !dbg !55
  %679 = insertelement <2 x float> %678, float %628, i64 1, !dbg !55
  store <2 x float> %679, ptr addrspace(3) %677, align 8, !dbg !55
  %680 = xor i32 %673, 8, !dbg !55
  %681 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %680, !dbg !55
  %682 = insertelement <2 x float> poison, float %619, i64 0, !dbg !55
  %683 = insertelement <2 x float> %682, float %621, i64 1, !dbg !55
  store <2 x float> %683, ptr addrspace(3) %681, align 8, !dbg !55
  %684 = getelementptr inbounds nuw i8, ptr addrspace(3) %681, i32 1024, !dbg !55
  %685 = insertelement <2 x float> poison, float %627, i64 0, !dbg !55
  %686 = insertelement <2 x float> %685, float %629, i64 1, !dbg !55
  store <2 x float> %686, ptr addrspace(3) %684, align 8, !dbg !55
  %687 = xor i32 %673, 16, !dbg !55
  %688 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %687, !dbg !55
  %689 = insertelement <2 x float> poison, float %622, i64 0, !dbg !55
  %690 = insertelement <2 x float> %689, float %624, i64 1, !dbg !55
  store <2 x float> %690, ptr addrspace(3) %688, align 8, !dbg !55
  %691 = getelementptr inbounds nuw i8, ptr addrspace(3) %688, i32 1024, !dbg !55
  %692 = insertelement <2 x float> poison, float %630, i64 0, !dbg !55
  %693 = insertelement <2 x float> %692, float %632, i64 1, !dbg !55
  store <2 x float> %693, ptr addrspace(3) %691, align 8, !dbg !55
  %694 = xor i32 %673, 24, !dbg !55
  %695 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %694, !dbg !55
  %696 = insertelement <2 x float> poison, float %623, i64 0, !dbg !55
  %697 = insertelement <2 x float> %696, float %625, i64 1, !dbg !55
  store <2 x float> %697, ptr addrspace(3) %695, align 8, !dbg !55
  %698 = getelementptr inbounds nuw i8, ptr addrspace(3) %695, i32 1024, !dbg !55
  %699 = insertelement <2 x float> poison, float %631, i64 0, !dbg !55
  %700 = insertelement <2 x float> %699, float %633, i64 1, !dbg !55
  store <2 x float> %700, ptr addrspace(3) %698, align 8, !dbg !55
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !55
  %701 = shl nuw nsw i32 %11, 6, !dbg !55
  %702 = and i32 %701, 7168, !dbg !55
  %703 = shl nuw nsw i32 %11, 4, !dbg !55
  %704 = and i32 %703, 96, !dbg !55
  %705 = lshr exact i32 %12, 2, !dbg !55
  %706 = shl nuw nsw i32 %11, 3, !dbg !55
  %707 = and i32 %706, 8, !dbg !55
  %708 = and i32 %114, 16, !dbg !55
  %709 = or disjoint i32 %702, %704, !dbg !55
  %710 = xor i32 %705, %707, !dbg !55
  %711 = or disjoint i32 %709, %710, !dbg !55
  %712 = xor i32 %711, %708, !dbg !55
  %713 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %712, !dbg !55
  %714 = load <2 x i32>, ptr addrspace(3) %713, align 8, !dbg !55
  %715 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 128, !dbg !55
  %716 = load <2 x i32>, ptr addrspace(3) %715, align 8, !dbg !55
  %717 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 256, !dbg !55
  %718 = load <2 x i32>, ptr addrspace(3) %717, align 8, !dbg !55
  %719 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 384, !dbg !55
  %720 = load <2 x i32>, ptr addrspace(3) %719, align 8, !dbg !55
  %721 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 512, !dbg !55
  %722 = load <2 x i32>, ptr addrspace(3) %721, align 8, !dbg !55
  %723 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 640, !dbg !55
  %724 = load <2 x i32>, ptr addrspace(3) %723, align 8, !dbg !55
  %725 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 768, !dbg !55
  %726 = load <2 x i32>, ptr addrspace(3) %725, align 8, !dbg !55
  %727 = getelementptr inbounds nuw i8, ptr addrspace(3) %713, i32 896, !dbg !55
  %728 = load <2 x i32>, ptr addrspace(3) %727, align 8, !dbg !55
  %.extract = extractelement <2 x i32> %714, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract, ptr addrspace(1) %651) #11, !dbg !55
  %.extract16 = extractelement <2 x i32> %716, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract16, ptr addrspace(1) %652) #11, !dbg !55
  %.extract17 = extractelement <2 x i32> %714, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract17, ptr addrspace(1) %653) #11, !dbg !55
  %.extract18 = extractelement <2 x i32> %716, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract18, ptr addrspace(1) %654) #11, !dbg !55
  %.extract19 = extractelement <2 x i32> %718, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract19, ptr addrspace(1) %655) #11, !dbg !55
  %.extract20 = extractelement <2 x i32> %720, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract20, ptr addrspace(1) %656) #11, !dbg !55
  %.extract21 = extractelement <2 x i32> %718, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract21, ptr addrspace(1) %657) #11, !dbg !55
  %.extract22 = extractelement <2 x i32> %720, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract22, ptr addrspace(1) %658) #11, !dbg !55
  %.extract23 = extractelement <2 x i32> %722, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract23, ptr addrspace(1) %659) #11, !dbg !55
  %.extract24 = extractelement <2 x i32> %724, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract24, ptr addrspace(1) %660) #11, !dbg !55
  %.extract25 = extractelement <2 x i32> %722, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract25, ptr addrspace(1) %661) #11, !dbg !55
  %.extract26 = extractelement <2 x i32> %724, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract26, ptr addrspace(1) %662) #11, !dbg !55
  %.extract27 = extractelement <2 x i32> %726, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract27, ptr addrspace(1) %663) #11, !dbg !55
  %.extract28 = extractelement <2 x i32> %728, i64 0, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract28, ptr addrspace(1) %664) #11, !dbg !55
  %.extract29 = extractelement <2 x i32> %726, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract29, ptr addrspace(1) %665) #11, !dbg !55
  %.extract30 = extractelement <2 x i32> %728, i64 1, !dbg !55
  tail call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %.extract30, ptr addrspace(1) %666) #11, !dbg !55
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

; Function Attrs: nocallback nounwind
declare void @llvm.nvvm.fence.proxy.async.shared_cta() #4

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.fence.sync.aligned() #5

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned() #5

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maxnum.f32(float, float) #6

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #7

declare i32 @__nvvm_reflect(ptr) local_unnamed_addr #8

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float) #9

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f32(float) #9

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>) #10

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { nocallback nounwind }
attributes #5 = { convergent nounwind }
attributes #6 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #7 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #8 = { "disable-tail-calls"="false" "frame-pointer"="all" "less-precise-fpmad"="false" "no-infs-fp-math"="false" "no-nans-fp-math"="false" "stack-protector-buffer-size"="8" "unsafe-fp-math"="false" "use-soft-float"="false" }
attributes #9 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #10 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #11 = { nounwind }

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
