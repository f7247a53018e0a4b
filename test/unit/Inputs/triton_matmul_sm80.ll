; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @matmul(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, i32 %4, i32 %5, i32 %6, i32 %7, i32 %8, ptr addrspace(1) nofree readnone captures(none) %9, ptr addrspace(1) nofree readnone captures(none) %10) local_unnamed_addr #0 !dbg !4 {
  %12 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !14
  %13 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !15
  %14 = shl i32 %12, 5, !dbg !16
  %15 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !17
  %16 = lshr i32 %15, 5, !dbg !17
  %17 = and i32 %16, 3, !dbg !17
  %18 = or disjoint i32 %17, 4, !dbg !17
  %19 = or disjoint i32 %17, 8, !dbg !17
  %20 = or disjoint i32 %17, 12, !dbg !17
  %21 = or disjoint i32 %17, 16, !dbg !17
  %22 = or disjoint i32 %17, 20, !dbg !17
  %23 = or disjoint i32 %17, 24, !dbg !17
  %24 = or i32 %16, 28, !dbg !17
  %25 = and i32 %15, 31, !dbg !17
  %26 = or disjoint i32 %17, %14, !dbg !16
  %27 = or disjoint i32 %18, %14, !dbg !16
  %28 = or disjoint i32 %19, %14, !dbg !16
  %29 = or disjoint i32 %20, %14, !dbg !16
  %30 = or disjoint i32 %21, %14, !dbg !16
  %31 = or disjoint i32 %22, %14, !dbg !16
  %32 = or disjoint i32 %23, %14, !dbg !16
  %33 = or disjoint i32 %24, %14, !dbg !16
  %34 = shl nuw nsw i32 %13, 5, !dbg !18
  %35 = or disjoint i32 %34, %25, !dbg !18
  %36 = icmp slt i32 %26, %3, !dbg !19
  %37 = icmp slt i32 %27, %3, !dbg !19
  %38 = icmp slt i32 %28, %3, !dbg !19
  %39 = icmp slt i32 %29, %3, !dbg !19
  %40 = icmp slt i32 %30, %3, !dbg !19
  %41 = icmp slt i32 %31, %3, !dbg !19
  %42 = icmp slt i32 %32, %3, !dbg !19
  %43 = icmp slt i32 %33, %3, !dbg !19
  %44 = icmp slt i32 %35, %4, !dbg !20
  %45 = mul i32 %6, %26, !dbg !21
  %46 = mul i32 %6, %27, !dbg !21
  %47 = mul i32 %6, %28, !dbg !21
  %48 = mul i32 %6, %29, !dbg !21
  %49 = mul i32 %6, %30, !dbg !21
  %50 = mul i32 %6, %31, !dbg !21
  %51 = mul i32 %6, %32, !dbg !21
  %52 = mul i32 %6, %33, !dbg !21
  %53 = sext i32 %45 to i64, !dbg !22
  %54 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %53, !dbg !22
  %55 = sext i32 %46 to i64, !dbg !22
  %56 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %55, !dbg !22
  %57 = sext i32 %47 to i64, !dbg !22
  %58 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %57, !dbg !22
  %59 = sext i32 %48 to i64, !dbg !22
  %60 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %59, !dbg !22
  %61 = sext i32 %49 to i64, !dbg !22
  %62 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %61, !dbg !22
  %63 = sext i32 %50 to i64, !dbg !22
  %64 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %63, !dbg !22
  %65 = sext i32 %51 to i64, !dbg !22
  %66 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %65, !dbg !22
  %67 = sext i32 %52 to i64, !dbg !22
  %68 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %67, !dbg !22
  %69 = icmp sgt i32 %5, 0, !dbg !23
  br i1 %69, label %.lr.ph, label %.._crit_edge_crit_edge, !dbg !23

.._crit_edge_crit_edge:                           ; preds = %11
  %.pre = zext nneg i32 %35 to i64, !dbg !24
  %.pre31 = shl nuw nsw i32 %15, 3, !dbg !25
  %.pre33 = shl nuw nsw i32 %15, 1, !dbg !25
  %.pre35 = and i32 %15, 64, !dbg !25
  br label %._crit_edge, !dbg !23

.lr.ph:                                           ; preds = %11
  %70 = shl nuw nsw i32 %15, 1
  %71 = and i32 %70, 126
  %72 = and i32 %15, 64
  %73 = icmp eq i32 %72, 0
  %74 = select i1 %73, i32 0, i32 144
  %75 = xor i32 %74, %71
  %76 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %75
  %77 = or disjoint i32 %75, 512
  %78 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %77
  %79 = or disjoint i32 %75, 1024
  %80 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %79
  %81 = or disjoint i32 %75, 1536
  %82 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %81
  %83 = xor i32 %75, 288
  %84 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %83
  %85 = or disjoint i32 %83, 512
  %86 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %85
  %87 = or disjoint i32 %83, 1024
  %88 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %87
  %89 = or disjoint i32 %83, 1536
  %90 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %89
  %91 = zext nneg i32 %35 to i64
  %invariant.gep = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %91, !dbg !23
  %92 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %75
  %93 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %77
  %94 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %79
  %95 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %81
  %96 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %83
  %97 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %85
  %98 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %87
  %99 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %89
  %100 = shl nuw nsw i32 %15, 6
  %101 = and i32 %100, 960
  %102 = shl nuw nsw i32 %15, 3
  %103 = and i32 %102, 48
  %104 = and i32 %15, 16
  %105 = shl nuw nsw i32 %72, 4
  %106 = or disjoint i32 %101, %105
  %107 = xor i32 %103, %104
  %108 = or disjoint i32 %106, %107
  %109 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %108
  %110 = xor i32 %108, 32
  %111 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %110
  %112 = shl nuw nsw i32 %25, 6
  %113 = lshr i32 %15, 1
  %114 = and i32 %113, 16
  %115 = xor i32 %103, %114
  %116 = or disjoint i32 %115, %112
  %117 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %116
  %118 = xor i32 %116, 32
  %119 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2048), i32 %118
  br label %120, !dbg !23

120:                                              ; preds = %.lr.ph, %120
  %121 = phi float [ 0.000000e+00, %.lr.ph ], [ %252, %120 ]
  %122 = phi float [ 0.000000e+00, %.lr.ph ], [ %253, %120 ]
  %123 = phi float [ 0.000000e+00, %.lr.ph ], [ %254, %120 ]
  %124 = phi float [ 0.000000e+00, %.lr.ph ], [ %255, %120 ]
  %125 = phi float [ 0.000000e+00, %.lr.ph ], [ %257, %120 ]
  %126 = phi float [ 0.000000e+00, %.lr.ph ], [ %258, %120 ]
  %127 = phi float [ 0.000000e+00, %.lr.ph ], [ %259, %120 ]
  %128 = phi float [ 0.000000e+00, %.lr.ph ], [ %260, %120 ]
  %129 = phi i32 [ 0, %.lr.ph ], [ %261, %120 ]
  %130 = or disjoint i32 %129, %25, !dbg !26
  %131 = icmp slt i32 %130, %5, !dbg !26
  %132 = and i1 %36, %131, !dbg !27
  %133 = and i1 %37, %131, !dbg !27
  %134 = and i1 %38, %131, !dbg !27
  %135 = and i1 %39, %131, !dbg !27
  %136 = and i1 %40, %131, !dbg !27
  %137 = and i1 %41, %131, !dbg !27
  %138 = and i1 %42, %131, !dbg !27
  %139 = and i1 %43, %131, !dbg !27
  %140 = or disjoint i32 %129, %17, !dbg !28
  %141 = or disjoint i32 %129, %18, !dbg !28
  %142 = or disjoint i32 %129, %19, !dbg !28
  %143 = or disjoint i32 %129, %20, !dbg !28
  %144 = or disjoint i32 %129, %21, !dbg !28
  %145 = or disjoint i32 %129, %22, !dbg !28
  %146 = or disjoint i32 %129, %23, !dbg !28
  %147 = or disjoint i32 %129, %24, !dbg !28
  %148 = icmp slt i32 %140, %5, !dbg !28
  %149 = icmp slt i32 %141, %5, !dbg !28
  %150 = icmp slt i32 %142, %5, !dbg !28
  %151 = icmp slt i32 %143, %5, !dbg !28
  %152 = icmp slt i32 %144, %5, !dbg !28
  %153 = icmp slt i32 %145, %5, !dbg !28
  %154 = icmp slt i32 %146, %5, !dbg !28
  %155 = icmp slt i32 %147, %5, !dbg !28
  %156 = and i1 %44, %148, !dbg !29
  %157 = and i1 %44, %149, !dbg !29
  %158 = and i1 %44, %150, !dbg !29
  %159 = and i1 %44, %151, !dbg !29
  %160 = and i1 %44, %152, !dbg !29
  %161 = and i1 %44, %153, !dbg !29
  %162 = and i1 %44, %154, !dbg !29
  %163 = and i1 %44, %155, !dbg !29
  %164 = sext i32 %130 to i64, !dbg !22
  %165 = getelementptr [2 x i8], ptr addrspace(1) %54, i64 %164, !dbg !22
  %166 = getelementptr [2 x i8], ptr addrspace(1) %56, i64 %164, !dbg !22
  %167 = getelementptr [2 x i8], ptr addrspace(1) %58, i64 %164, !dbg !22
  %168 = getelementptr [2 x i8], ptr addrspace(1) %60, i64 %164, !dbg !22
  %169 = getelementptr [2 x i8], ptr addrspace(1) %62, i64 %164, !dbg !22
  %170 = getelementptr [2 x i8], ptr addrspace(1) %64, i64 %164, !dbg !22
  %171 = getelementptr [2 x i8], ptr addrspace(1) %66, i64 %164, !dbg !22
  %172 = getelementptr [2 x i8], ptr addrspace(1) %68, i64 %164, !dbg !22
  %173 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %165, i1 %132) #4, !dbg !30
  %174 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %166, i1 %133) #4, !dbg !30
  %175 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %167, i1 %134) #4, !dbg !30
  %176 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %168, i1 %135) #4, !dbg !30
  %177 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %169, i1 %136) #4, !dbg !30
  %178 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %170, i1 %137) #4, !dbg !30
  %179 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %171, i1 %138) #4, !dbg !30
  %180 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %172, i1 %139) #4, !dbg !30
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !30
  %181 = insertelement <1 x i16> poison, i16 %173, i64 0, !dbg !30
  store <1 x i16> %181, ptr addrspace(3) %76, align 2, !dbg !30
  %182 = insertelement <1 x i16> poison, i16 %175, i64 0, !dbg !30
  store <1 x i16> %182, ptr addrspace(3) %78, align 2, !dbg !30
  %183 = insertelement <1 x i16> poison, i16 %177, i64 0, !dbg !30
  store <1 x i16> %183, ptr addrspace(3) %80, align 2, !dbg !30
  %184 = insertelement <1 x i16> poison, i16 %179, i64 0, !dbg !30
  store <1 x i16> %184, ptr addrspace(3) %82, align 2, !dbg !30
  %185 = insertelement <1 x i16> poison, i16 %174, i64 0, !dbg !30
  store <1 x i16> %185, ptr addrspace(3) %84, align 2, !dbg !30
  %186 = insertelement <1 x i16> poison, i16 %176, i64 0, !dbg !30
  store <1 x i16> %186, ptr addrspace(3) %86, align 2, !dbg !30
  %187 = insertelement <1 x i16> poison, i16 %178, i64 0, !dbg !30
  store <1 x i16> %187, ptr addrspace(3) %88, align 2, !dbg !30
  %188 = insertelement <1 x i16> poison, i16 %180, i64 0, !dbg !30
  store <1 x i16> %188, ptr addrspace(3) %90, align 2, !dbg !30
  %189 = mul i32 %140, %7, !dbg !31
  %190 = mul i32 %141, %7, !dbg !31
  %191 = mul i32 %142, %7, !dbg !31
  %192 = mul i32 %143, %7, !dbg !31
  %193 = mul i32 %144, %7, !dbg !31
  %194 = mul i32 %145, %7, !dbg !31
  %195 = mul i32 %146, %7, !dbg !31
  %196 = mul i32 %147, %7, !dbg !31
  %197 = sext i32 %189 to i64, !dbg !32
  %198 = sext i32 %190 to i64, !dbg !32
  %199 = sext i32 %191 to i64, !dbg !32
  %200 = sext i32 %192 to i64, !dbg !32
  %201 = sext i32 %193 to i64, !dbg !32
  %202 = sext i32 %194 to i64, !dbg !32
  %203 = sext i32 %195 to i64, !dbg !32
  %204 = sext i32 %196 to i64, !dbg !32
  %gep = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %197, !dbg !32
  %gep17 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %198, !dbg !32
  %gep19 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %199, !dbg !32
  %gep21 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %200, !dbg !32
  %gep23 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %201, !dbg !32
  %gep25 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %202, !dbg !32
  %gep27 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %203, !dbg !32
  %gep29 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %204, !dbg !32
  %205 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep, i1 %156) #4, !dbg !33
  %206 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep17, i1 %157) #4, !dbg !33
  %207 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep19, i1 %158) #4, !dbg !33
  %208 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep21, i1 %159) #4, !dbg !33
  %209 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep23, i1 %160) #4, !dbg !33
  %210 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep25, i1 %161) #4, !dbg !33
  %211 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep27, i1 %162) #4, !dbg !33
  %212 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep29, i1 %163) #4, !dbg !33
  %213 = insertelement <1 x i16> poison, i16 %205, i64 0, !dbg !33
  store <1 x i16> %213, ptr addrspace(3) %92, align 2, !dbg !33
  %214 = insertelement <1 x i16> poison, i16 %207, i64 0, !dbg !33
  store <1 x i16> %214, ptr addrspace(3) %93, align 2, !dbg !33
  %215 = insertelement <1 x i16> poison, i16 %209, i64 0, !dbg !33
  store <1 x i16> %215, ptr addrspace(3) %94, align 2, !dbg !33
  %216 = insertelement <1 x i16> poison, i16 %211, i64 0, !dbg !33
  store <1 x i16> %216, ptr addrspace(3) %95, align 2, !dbg !33
  %217 = insertelement <1 x i16> poison, i16 %206, i64 0, !dbg !33
  store <1 x i16> %217, ptr addrspace(3) %96, align 2, !dbg !33
  %218 = insertelement <1 x i16> poison, i16 %208, i64 0, !dbg !33
  store <1 x i16> %218, ptr addrspace(3) %97, align 2, !dbg !33
  %219 = insertelement <1 x i16> poison, i16 %210, i64 0, !dbg !33
  store <1 x i16> %219, ptr addrspace(3) %98, align 2, !dbg !33
  %220 = insertelement <1 x i16> poison, i16 %212, i64 0, !dbg !33
  store <1 x i16> %220, ptr addrspace(3) %99, align 2, !dbg !33
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !30
  %221 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %109), !dbg !30
  %222 = extractvalue { i32, i32, i32, i32 } %221, 0, !dbg !30
  %223 = extractvalue { i32, i32, i32, i32 } %221, 1, !dbg !30
  %224 = extractvalue { i32, i32, i32, i32 } %221, 2, !dbg !30
  %225 = extractvalue { i32, i32, i32, i32 } %221, 3, !dbg !30
  %226 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %111), !dbg !30
  %227 = extractvalue { i32, i32, i32, i32 } %226, 0, !dbg !30
  %228 = extractvalue { i32, i32, i32, i32 } %226, 1, !dbg !30
  %229 = extractvalue { i32, i32, i32, i32 } %226, 2, !dbg !30
  %230 = extractvalue { i32, i32, i32, i32 } %226, 3, !dbg !30
  %231 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %117), !dbg !33
  %232 = extractvalue { i32, i32, i32, i32 } %231, 0, !dbg !33
  %233 = extractvalue { i32, i32, i32, i32 } %231, 1, !dbg !33
  %234 = extractvalue { i32, i32, i32, i32 } %231, 2, !dbg !33
  %235 = extractvalue { i32, i32, i32, i32 } %231, 3, !dbg !33
  %236 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) %119), !dbg !33
  %237 = extractvalue { i32, i32, i32, i32 } %236, 0, !dbg !33
  %238 = extractvalue { i32, i32, i32, i32 } %236, 1, !dbg !33
  %239 = extractvalue { i32, i32, i32, i32 } %236, 2, !dbg !33
  %240 = extractvalue { i32, i32, i32, i32 } %236, 3, !dbg !33
  %241 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %121, float %122, float %123, float %124, i32 %222, i32 %223, i32 %224, i32 %225, i32 %232, i32 %233) #4, !dbg !34
  %242 = extractvalue { float, float, float, float } %241, 0, !dbg !34
  %243 = extractvalue { float, float, float, float } %241, 1, !dbg !34
  %244 = extractvalue { float, float, float, float } %241, 2, !dbg !34
  %245 = extractvalue { float, float, float, float } %241, 3, !dbg !34
  %246 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %125, float %126, float %127, float %128, i32 %222, i32 %223, i32 %224, i32 %225, i32 %237, i32 %238) #4, !dbg !34
  %247 = extractvalue { float, float, float, float } %246, 0, !dbg !34
  %248 = extractvalue { float, float, float, float } %246, 1, !dbg !34
  %249 = extractvalue { float, float, float, float } %246, 2, !dbg !34
  %250 = extractvalue { float, float, float, float } %246, 3, !dbg !34
  %251 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %242, float %243, float %244, float %245, i32 %227, i32 %228, i32 %229, i32 %230, i32 %234, i32 %235) #4, !dbg !34
  %252 = extractvalue { float, float, float, float } %251, 0, !dbg !34
  %253 = extractvalue { float, float, float, float } %251, 1, !dbg !34
  %254 = extractvalue { float, float, float, float } %251, 2, !dbg !34
  %255 = extractvalue { float, float, float, float } %251, 3, !dbg !34
  %256 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %247, float %248, float %249, float %250, i32 %227, i32 %228, i32 %229, i32 %230, i32 %239, i32 %240) #4, !dbg !34
  %257 = extractvalue { float, float, float, float } %256, 0, !dbg !34
  %258 = extractvalue { float, float, float, float } %256, 1, !dbg !34
  %259 = extractvalue { float, float, float, float } %256, 2, !dbg !34
  %260 = extractvalue { float, float, float, float } %256, 3, !dbg !34
  %261 = add i32 %129, 32, !dbg !23
  %262 = icmp slt i32 %261, %5, !dbg !23
  br i1 %262, label %120, label %._crit_edge, !dbg !23

._crit_edge:                                      ; preds = %120, %.._crit_edge_crit_edge
  %.pre-phi36 = phi i32 [ %.pre35, %.._crit_edge_crit_edge ], [ %72, %120 ], !dbg !25
  %.pre-phi34 = phi i32 [ %.pre33, %.._crit_edge_crit_edge ], [ %70, %120 ], !dbg !25
  %.pre-phi32 = phi i32 [ %.pre31, %.._crit_edge_crit_edge ], [ %102, %120 ], !dbg !25
  %.pre-phi = phi i64 [ %.pre, %.._crit_edge_crit_edge ], [ %91, %120 ], !dbg !24
  %263 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %252, %120 ], !dbg !35
  %264 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %253, %120 ], !dbg !35
  %265 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %254, %120 ], !dbg !35
  %266 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %255, %120 ], !dbg !35
  %267 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %257, %120 ], !dbg !35
  %268 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %258, %120 ], !dbg !35
  %269 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %259, %120 ], !dbg !35
  %270 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %260, %120 ], !dbg !35
  %271 = and i1 %36, %44, !dbg !36
  %272 = and i1 %37, %44, !dbg !36
  %273 = and i1 %38, %44, !dbg !36
  %274 = and i1 %39, %44, !dbg !36
  %275 = and i1 %40, %44, !dbg !36
  %276 = and i1 %41, %44, !dbg !36
  %277 = and i1 %42, %44, !dbg !36
  %278 = and i1 %43, %44, !dbg !36
  %279 = mul i32 %8, %26, !dbg !37
  %280 = mul i32 %8, %27, !dbg !37
  %281 = mul i32 %8, %28, !dbg !37
  %282 = mul i32 %8, %29, !dbg !37
  %283 = mul i32 %8, %30, !dbg !37
  %284 = mul i32 %8, %31, !dbg !37
  %285 = mul i32 %8, %32, !dbg !37
  %286 = mul i32 %8, %33, !dbg !37
  %287 = sext i32 %279 to i64, !dbg !24
  %288 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %287, !dbg !24
  %289 = sext i32 %280 to i64, !dbg !24
  %290 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %289, !dbg !24
  %291 = sext i32 %281 to i64, !dbg !24
  %292 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %291, !dbg !24
  %293 = sext i32 %282 to i64, !dbg !24
  %294 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %293, !dbg !24
  %295 = sext i32 %283 to i64, !dbg !24
  %296 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %295, !dbg !24
  %297 = sext i32 %284 to i64, !dbg !24
  %298 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %297, !dbg !24
  %299 = sext i32 %285 to i64, !dbg !24
  %300 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %299, !dbg !24
  %301 = sext i32 %286 to i64, !dbg !24
  %302 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %301, !dbg !24
  %303 = getelementptr [4 x i8], ptr addrspace(1) %288, i64 %.pre-phi, !dbg !24
  %304 = getelementptr [4 x i8], ptr addrspace(1) %290, i64 %.pre-phi, !dbg !24
  %305 = getelementptr [4 x i8], ptr addrspace(1) %292, i64 %.pre-phi, !dbg !24
  %306 = getelementptr [4 x i8], ptr addrspace(1) %294, i64 %.pre-phi, !dbg !24
  %307 = getelementptr [4 x i8], ptr addrspace(1) %296, i64 %.pre-phi, !dbg !24
  %308 = getelementptr [4 x i8], ptr addrspace(1) %298, i64 %.pre-phi, !dbg !24
  %309 = getelementptr [4 x i8], ptr addrspace(1) %300, i64 %.pre-phi, !dbg !24
  %310 = getelementptr [4 x i8], ptr addrspace(1) %302, i64 %.pre-phi, !dbg !24
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
  %311 = shl nuw nsw i32 %15, 8, !dbg !25
  %312 = and i32 %311, 3072, !dbg !25
  %313 = shl nuw nsw i32 %15, 4, !dbg !25
  %314 = and i32 %313, 48, !dbg !25
  %315 = and i32 %.pre-phi32, 192, !dbg !25
  %316 = and i32 %.pre-phi34, 72, !dbg !25
  %317 = shl nuw nsw i32 %.pre-phi36, 2, !dbg !25
  %318 = or disjoint i32 %312, %314, !dbg !25
  %319 = xor i32 %315, %316, !dbg !25
  %320 = or disjoint i32 %318, %319, !dbg !25
  %321 = or disjoint i32 %320, %317, !dbg !25
  %322 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %321, !dbg !25
  %323 = insertelement <2 x float> poison, float %263, i64 0, !dbg !25
  %324 = insertelement <2 x float> %323, float %265, i64 1, !dbg !25
  store <2 x float> %324, ptr addrspace(3) %322, align 8, !dbg !25
  %325 = getelementptr inbounds nuw i8, ptr addrspace(3) %322, i32 512, !dbg !25
  %326 = insertelement <2 x float> poison, float %267, i64 0, !dbg !25
  %327 = insertelement <2 x float> %326, float %269, i64 1, !dbg !25
  store <2 x float> %327, ptr addrspace(3) %325, align 8, !dbg !25
  %328 = xor i32 %321, 8, !dbg !25
  %329 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %328, !dbg !25
  %330 = insertelement <2 x float> poison, float %264, i64 0, !dbg !25
  %331 = insertelement <2 x float> %330, float %266, i64 1, !dbg !25
  store <2 x float> %331, ptr addrspace(3) %329, align 8, !dbg !25
  %332 = getelementptr inbounds nuw i8, ptr addrspace(3) %329, i32 512, !dbg !25
  %333 = insertelement <2 x float> poison, float %268, i64 0, !dbg !25
  %334 = insertelement <2 x float> %333, float %270, i64 1, !dbg !25
  store <2 x float> %334, ptr addrspace(3) %332, align 8, !dbg !25
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !25
  %335 = and i32 %.pre-phi32, 120, !dbg !25
  %336 = shl nuw nsw i32 %15, 5, !dbg !25
  %337 = and i32 %336, 512, !dbg !25
  %338 = and i32 %15, 32, !dbg !25
  %339 = icmp eq i32 %338, 0, !dbg !25
  %340 = select i1 %339, i32 0, i32 1032, !dbg !25
  %341 = icmp eq i32 %.pre-phi36, 0, !dbg !25
  %342 = select i1 %341, i32 0, i32 2112, !dbg !25
  %343 = xor i32 %340, %335, !dbg !25
  %344 = xor i32 %343, %342, !dbg !25
  %345 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %337, !dbg !25
  %346 = getelementptr inbounds nuw i8, ptr addrspace(3) %345, i32 %344, !dbg !25
  %347 = load <2 x i32>, ptr addrspace(3) %346, align 8, !dbg !25
  %348 = getelementptr inbounds nuw i8, ptr addrspace(3) %346, i32 128, !dbg !25
  %349 = load <2 x i32>, ptr addrspace(3) %348, align 8, !dbg !25
  %350 = getelementptr inbounds nuw i8, ptr addrspace(3) %346, i32 256, !dbg !25
  %351 = load <2 x i32>, ptr addrspace(3) %350, align 8, !dbg !25
  %352 = getelementptr inbounds nuw i8, ptr addrspace(3) %346, i32 384, !dbg !25
  %353 = load <2 x i32>, ptr addrspace(3) %352, align 8, !dbg !25
  %.extract = extractelement <2 x i32> %347, i64 0, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract, ptr addrspace(1) %303, i1 %271) #4, !dbg !25
  %.extract9 = extractelement <2 x i32> %349, i64 0, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract9, ptr addrspace(1) %304, i1 %272) #4, !dbg !25
  %.extract10 = extractelement <2 x i32> %347, i64 1, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract10, ptr addrspace(1) %305, i1 %273) #4, !dbg !25
  %.extract11 = extractelement <2 x i32> %349, i64 1, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract11, ptr addrspace(1) %306, i1 %274) #4, !dbg !25
  %.extract12 = extractelement <2 x i32> %351, i64 0, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract12, ptr addrspace(1) %307, i1 %275) #4, !dbg !25
  %.extract13 = extractelement <2 x i32> %353, i64 0, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract13, ptr addrspace(1) %308, i1 %276) #4, !dbg !25
  %.extract14 = extractelement <2 x i32> %351, i64 1, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract14, ptr addrspace(1) %309, i1 %277) #4, !dbg !25
  %.extract15 = extractelement <2 x i32> %353, i64 1, !dbg !25
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract15, ptr addrspace(1) %310, i1 %278) #4, !dbg !25
  ret void, !dbg !38
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: convergent nocallback nofree nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) readonly captures(none)) #3

; Function Attrs: convergent nocallback nofree nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3(ptr addrspace(3) readonly captures(none)) #3

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { convergent nocallback nofree nounwind memory(argmem: read) }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "matmul", linkageName: "matmul", scope: !1, file: !1, line: 45, type: !5, scopeLine: 45, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{null, !7, !7, !9, !11, !11, !11, !11, !11, !11, !12, !12}
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 1)
!8 = !DIBasicType(name: "half", size: 16, encoding: DW_ATE_float)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !10, size: 64, dwarfAddressSpace: 1)
!10 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!12 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !13, size: 64, dwarfAddressSpace: 1)
!13 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!14 = !DILocation(line: 47, column: 13, scope: !4)
!15 = !DILocation(line: 48, column: 13, scope: !4)
!16 = !DILocation(line: 49, column: 10, scope: !4)
!17 = !DILocation(line: 49, column: 23, scope: !4)
!18 = !DILocation(line: 50, column: 10, scope: !4)
!19 = !DILocation(line: 54, column: 15, scope: !4)
!20 = !DILocation(line: 55, column: 39, scope: !4)
!21 = !DILocation(line: 56, column: 25, scope: !4)
!22 = !DILocation(line: 56, column: 21, scope: !4)
!23 = !DILocation(line: 53, column: 5, scope: !4)
!24 = !DILocation(line: 59, column: 14, scope: !4)
!25 = !DILocation(line: 59, column: 5, scope: !4)
!26 = !DILocation(line: 54, column: 35, scope: !4)
!27 = !DILocation(line: 54, column: 14, scope: !4)
!28 = !DILocation(line: 55, column: 15, scope: !4)
!29 = !DILocation(line: 55, column: 14, scope: !4)
!30 = !DILocation(line: 56, column: 13, scope: !4)
!31 = !DILocation(line: 57, column: 25, scope: !4)
!32 = !DILocation(line: 57, column: 21, scope: !4)
!33 = !DILocation(line: 57, column: 13, scope: !4)
!34 = !DILocation(line: 58, column: 16, scope: !4)
!35 = !DILocation(line: 52, column: 11, scope: !4)
!36 = !DILocation(line: 60, column: 19, scope: !4)
!37 = !DILocation(line: 59, column: 18, scope: !4)
!38 = !DILocation(line: 45, column: 1, scope: !4)
