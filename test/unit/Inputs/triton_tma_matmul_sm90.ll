; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @tma_matmul(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %0, i32 %1, i32 %2, i64 %3, i64 %4, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %5, i32 %6, i32 %7, i64 %8, i64 %9, ptr addrspace(1) %10, i32 %11, i32 %12, i32 %13, i32 %14, ptr addrspace(1) nofree readnone captures(none) %15, ptr addrspace(1) nofree readnone captures(none) %16) local_unnamed_addr #0 !dbg !4 {
  %18 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !14
  %19 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !15
  %20 = shl i32 %18, 6, !dbg !16
  %21 = shl nuw nsw i32 %19, 6, !dbg !17
  %22 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %23 = icmp samesign ult i32 %22, 32, !dbg !18
  %24 = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %25 = extractvalue { i32, i1 } %24, 1, !dbg !18
  %26 = and i1 %23, %25, !dbg !18
  tail call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r"(i1 %26, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576)) #6, !dbg !18
  %27 = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %28 = extractvalue { i32, i1 } %27, 1, !dbg !18
  %29 = and i1 %23, %28, !dbg !18
  tail call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r"(i1 %29, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24584)) #6, !dbg !18
  %30 = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %31 = extractvalue { i32, i1 } %30, 1, !dbg !18
  %32 = and i1 %23, %31, !dbg !18
  tail call void asm sideeffect "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r"(i1 %32, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24592)) #6, !dbg !18
  %33 = icmp sgt i32 %13, 0, !dbg !18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %34 = and i32 %22, 127, !dbg !18
  %35 = icmp eq i32 %34, 0, !dbg !18
  %36 = and i1 %35, %33, !dbg !18
  tail call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 8192;", "b,r"(i1 %36, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576)) #6, !dbg !18
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
  %37 = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !19
  %38 = extractvalue { i32, i1 } %37, 1, !dbg !19
  %39 = and i1 %33, %38, !dbg !19
  %40 = icmp samesign ult i32 %34, 32, !dbg !19
  %41 = and i1 %40, %39, !dbg !19
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %41, ptr addrspace(3) @global_smem, ptr nonnull %0, i32 0, i32 %20, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576)) #6, !dbg !19
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !20
  %42 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !20
  %43 = extractvalue { i32, i1 } %42, 1, !dbg !20
  %44 = and i1 %33, %43, !dbg !20
  %45 = and i1 %40, %44, !dbg !20
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %45, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 12288), ptr nonnull %5, i32 %21, i32 0, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576)) #6, !dbg !20
  %46 = icmp sgt i32 %13, 32, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %47 = and i1 %35, %46, !dbg !18
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 8192;", "b,r"(i1 %47, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24584)) #6, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
  %48 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !19
  %49 = extractvalue { i32, i1 } %48, 1, !dbg !19
  %50 = and i1 %46, %49, !dbg !19
  %51 = and i1 %40, %50, !dbg !19
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %51, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), ptr nonnull %0, i32 32, i32 %20, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24584)) #6, !dbg !19
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !20
  %52 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !20
  %53 = extractvalue { i32, i1 } %52, 1, !dbg !20
  %54 = and i1 %46, %53, !dbg !20
  %55 = and i1 %40, %54, !dbg !20
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %55, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 16384), ptr nonnull %5, i32 %21, i32 32, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24584)) #6, !dbg !20
  br i1 %33, label %.lr.ph, label %._crit_edge, !dbg !18

.lr.ph:                                           ; preds = %17
  %56 = add nsw i32 %13, -64
  br label %57, !dbg !18

57:                                               ; preds = %.lr.ph, %57
  %58 = phi i32 [ 0, %.lr.ph ], [ %99, %57 ]
  %59 = phi i32 [ -1, %.lr.ph ], [ %97, %57 ]
  %60 = phi i32 [ 1, %.lr.ph ], [ %221, %57 ]
  %61 = phi float [ 0.000000e+00, %.lr.ph ], [ %187, %57 ]
  %62 = phi float [ 0.000000e+00, %.lr.ph ], [ %188, %57 ]
  %63 = phi float [ 0.000000e+00, %.lr.ph ], [ %189, %57 ]
  %64 = phi float [ 0.000000e+00, %.lr.ph ], [ %190, %57 ]
  %65 = phi float [ 0.000000e+00, %.lr.ph ], [ %191, %57 ]
  %66 = phi float [ 0.000000e+00, %.lr.ph ], [ %192, %57 ]
  %67 = phi float [ 0.000000e+00, %.lr.ph ], [ %193, %57 ]
  %68 = phi float [ 0.000000e+00, %.lr.ph ], [ %194, %57 ]
  %69 = phi float [ 0.000000e+00, %.lr.ph ], [ %195, %57 ]
  %70 = phi float [ 0.000000e+00, %.lr.ph ], [ %196, %57 ]
  %71 = phi float [ 0.000000e+00, %.lr.ph ], [ %197, %57 ]
  %72 = phi float [ 0.000000e+00, %.lr.ph ], [ %198, %57 ]
  %73 = phi float [ 0.000000e+00, %.lr.ph ], [ %199, %57 ]
  %74 = phi float [ 0.000000e+00, %.lr.ph ], [ %200, %57 ]
  %75 = phi float [ 0.000000e+00, %.lr.ph ], [ %201, %57 ]
  %76 = phi float [ 0.000000e+00, %.lr.ph ], [ %202, %57 ]
  %77 = phi float [ 0.000000e+00, %.lr.ph ], [ %203, %57 ]
  %78 = phi float [ 0.000000e+00, %.lr.ph ], [ %204, %57 ]
  %79 = phi float [ 0.000000e+00, %.lr.ph ], [ %205, %57 ]
  %80 = phi float [ 0.000000e+00, %.lr.ph ], [ %206, %57 ]
  %81 = phi float [ 0.000000e+00, %.lr.ph ], [ %207, %57 ]
  %82 = phi float [ 0.000000e+00, %.lr.ph ], [ %208, %57 ]
  %83 = phi float [ 0.000000e+00, %.lr.ph ], [ %209, %57 ]
  %84 = phi float [ 0.000000e+00, %.lr.ph ], [ %210, %57 ]
  %85 = phi float [ 0.000000e+00, %.lr.ph ], [ %211, %57 ]
  %86 = phi float [ 0.000000e+00, %.lr.ph ], [ %212, %57 ]
  %87 = phi float [ 0.000000e+00, %.lr.ph ], [ %213, %57 ]
  %88 = phi float [ 0.000000e+00, %.lr.ph ], [ %214, %57 ]
  %89 = phi float [ 0.000000e+00, %.lr.ph ], [ %215, %57 ]
  %90 = phi float [ 0.000000e+00, %.lr.ph ], [ %216, %57 ]
  %91 = phi float [ 0.000000e+00, %.lr.ph ], [ %217, %57 ]
  %92 = phi float [ 0.000000e+00, %.lr.ph ], [ %218, %57 ]
  %93 = phi i32 [ 0, %.lr.ph ], [ %236, %57 ]
  %94 = icmp slt i32 %93, %56, !dbg !18
  %95 = add i32 %59, 1, !dbg !18
  %96 = icmp sgt i32 %95, 2, !dbg !18
  %97 = select i1 %96, i32 0, i32 %95, !dbg !18
  %98 = zext i1 %96 to i32, !dbg !18
  %99 = xor i32 %58, %98, !dbg !18
  %100 = getelementptr [8 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576), i32 %97, !dbg !18
  call void asm sideeffect "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r"(ptr addrspace(3) %100, i32 %99) #6, !dbg !18
  %101 = shl i32 %97, 11, !dbg !20
  %102 = getelementptr [2 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 12288), i32 %101, !dbg !20
  %103 = getelementptr [2 x i8], ptr addrspace(3) @global_smem, i32 %101, !dbg !19
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !21
  %104 = ptrtoint ptr addrspace(3) %103 to i32, !dbg !21
  %105 = lshr exact i32 %104, 4, !dbg !21
  %106 = and i32 %105, 32767, !dbg !21
  %107 = ptrtoint ptr addrspace(3) %102 to i32, !dbg !21
  %108 = lshr exact i32 %107, 4, !dbg !21
  %109 = and i32 %108, 32767, !dbg !21
  call void @llvm.nvvm.wgmma.fence.sync.aligned(), !dbg !21
  %110 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %106, i64 0, !dbg !21
  %111 = bitcast <2 x i32> %110 to i64, !dbg !21
  %112 = insertelement <2 x i32> <i32 poison, i32 1073741888>, i32 %109, i64 0, !dbg !21
  %113 = bitcast <2 x i32> %112 to i64, !dbg !21
  %114 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31}, $64, $65, $66, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,b"(float %61, float %62, float %63, float %64, float %65, float %66, float %67, float %68, float %69, float %70, float %71, float %72, float %73, float %74, float %75, float %76, float %77, float %78, float %79, float %80, float %81, float %82, float %83, float %84, float %85, float %86, float %87, float %88, float %89, float %90, float %91, float %92, i64 %111, i64 %113, i1 true) #6, !dbg !21
  %115 = add nuw nsw i32 %106, 2, !dbg !21
  %116 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %115, i64 0, !dbg !21
  %117 = bitcast <2 x i32> %116 to i64, !dbg !21
  %118 = add nuw nsw i32 %109, 128, !dbg !21
  %119 = insertelement <2 x i32> <i32 poison, i32 1073741888>, i32 %118, i64 0, !dbg !21
  %120 = bitcast <2 x i32> %119 to i64, !dbg !21
  %121 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 0, !dbg !21
  %122 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 1, !dbg !21
  %123 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 2, !dbg !21
  %124 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 3, !dbg !21
  %125 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 4, !dbg !21
  %126 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 5, !dbg !21
  %127 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 6, !dbg !21
  %128 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 7, !dbg !21
  %129 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 8, !dbg !21
  %130 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 9, !dbg !21
  %131 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 10, !dbg !21
  %132 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 11, !dbg !21
  %133 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 12, !dbg !21
  %134 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 13, !dbg !21
  %135 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 14, !dbg !21
  %136 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 15, !dbg !21
  %137 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 16, !dbg !21
  %138 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 17, !dbg !21
  %139 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 18, !dbg !21
  %140 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 19, !dbg !21
  %141 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 20, !dbg !21
  %142 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 21, !dbg !21
  %143 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 22, !dbg !21
  %144 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 23, !dbg !21
  %145 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 24, !dbg !21
  %146 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 25, !dbg !21
  %147 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 26, !dbg !21
  %148 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 27, !dbg !21
  %149 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 28, !dbg !21
  %150 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 29, !dbg !21
  %151 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 30, !dbg !21
  %152 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %114, 31, !dbg !21
  %153 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31}, $64, $65, $66, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,b"(float %121, float %122, float %123, float %124, float %125, float %126, float %127, float %128, float %129, float %130, float %131, float %132, float %133, float %134, float %135, float %136, float %137, float %138, float %139, float %140, float %141, float %142, float %143, float %144, float %145, float %146, float %147, float %148, float %149, float %150, float %151, float %152, i64 %117, i64 %120, i1 true) #6, !dbg !21
  %154 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 0, !dbg !21
  %155 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 1, !dbg !21
  %156 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 2, !dbg !21
  %157 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 3, !dbg !21
  %158 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 4, !dbg !21
  %159 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 5, !dbg !21
  %160 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 6, !dbg !21
  %161 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 7, !dbg !21
  %162 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 8, !dbg !21
  %163 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 9, !dbg !21
  %164 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 10, !dbg !21
  %165 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 11, !dbg !21
  %166 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 12, !dbg !21
  %167 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 13, !dbg !21
  %168 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 14, !dbg !21
  %169 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 15, !dbg !21
  %170 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 16, !dbg !21
  %171 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 17, !dbg !21
  %172 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 18, !dbg !21
  %173 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 19, !dbg !21
  %174 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 20, !dbg !21
  %175 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 21, !dbg !21
  %176 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 22, !dbg !21
  %177 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 23, !dbg !21
  %178 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 24, !dbg !21
  %179 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 25, !dbg !21
  %180 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 26, !dbg !21
  %181 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 27, !dbg !21
  %182 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 28, !dbg !21
  %183 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 29, !dbg !21
  %184 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 30, !dbg !21
  %185 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %153, 31, !dbg !21
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned(), !dbg !21
  %186 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } asm sideeffect "// wait for regs: $0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32,$33,$34,$35,$36,$37\0A\09wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=l,=r,=r,=l,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37"(float %154, float %155, float %156, float %157, float %158, float %159, float %160, float %161, float %162, float %163, float %164, float %165, float %166, float %167, float %168, float %169, float %170, float %171, float %172, float %173, float %174, float %175, float %176, float %177, float %178, float %179, float %180, float %181, float %182, float %183, float %184, float %185, ptr addrspace(3) %103, i32 0, i32 0, ptr addrspace(3) %102, i32 0, i32 0) #6, !dbg !21
  %187 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 0, !dbg !21
  %188 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 1, !dbg !21
  %189 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 2, !dbg !21
  %190 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 3, !dbg !21
  %191 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 4, !dbg !21
  %192 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 5, !dbg !21
  %193 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 6, !dbg !21
  %194 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 7, !dbg !21
  %195 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 8, !dbg !21
  %196 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 9, !dbg !21
  %197 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 10, !dbg !21
  %198 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 11, !dbg !21
  %199 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 12, !dbg !21
  %200 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 13, !dbg !21
  %201 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 14, !dbg !21
  %202 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 15, !dbg !21
  %203 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 16, !dbg !21
  %204 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 17, !dbg !21
  %205 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 18, !dbg !21
  %206 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 19, !dbg !21
  %207 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 20, !dbg !21
  %208 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 21, !dbg !21
  %209 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 22, !dbg !21
  %210 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 23, !dbg !21
  %211 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 24, !dbg !21
  %212 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 25, !dbg !21
  %213 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 26, !dbg !21
  %214 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 27, !dbg !21
  %215 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 28, !dbg !21
  %216 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 29, !dbg !21
  %217 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 30, !dbg !21
  %218 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %186, 31, !dbg !21
  %219 = add i32 %60, 1, !dbg !18
  %220 = icmp sgt i32 %219, 2, !dbg !18
  %221 = select i1 %220, i32 0, i32 %219, !dbg !18
  %222 = getelementptr [8 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576), i32 %221, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %223 = and i1 %35, %94, !dbg !18
  call void asm sideeffect "@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 8192;", "b,r"(i1 %223, ptr addrspace(3) %222) #6, !dbg !18
  %224 = shl i32 %221, 11, !dbg !19
  %225 = getelementptr [2 x i8], ptr addrspace(3) @global_smem, i32 %224, !dbg !19
  %226 = add i32 %93, 64, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !19
  %227 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !19
  %228 = extractvalue { i32, i1 } %227, 1, !dbg !19
  %229 = and i1 %94, %228, !dbg !19
  %230 = and i1 %40, %229, !dbg !19
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %230, ptr addrspace(3) %225, ptr nonnull %0, i32 %226, i32 %20, ptr addrspace(3) %222) #6, !dbg !19
  %231 = getelementptr [2 x i8], ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 12288), i32 %224, !dbg !20
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !20
  %232 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !20
  %233 = extractvalue { i32, i1 } %232, 1, !dbg !20
  %234 = and i1 %94, %233, !dbg !20
  %235 = and i1 %40, %234, !dbg !20
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %235, ptr addrspace(3) %231, ptr nonnull %5, i32 %21, i32 %226, ptr addrspace(3) %222) #6, !dbg !20
  %236 = add i32 %93, 32, !dbg !18
  %237 = icmp slt i32 %236, %13, !dbg !18
  br i1 %237, label %57, label %._crit_edge, !dbg !18

._crit_edge:                                      ; preds = %57, %17
  %238 = phi float [ 0.000000e+00, %17 ], [ %187, %57 ]
  %239 = phi float [ 0.000000e+00, %17 ], [ %188, %57 ]
  %240 = phi float [ 0.000000e+00, %17 ], [ %189, %57 ]
  %241 = phi float [ 0.000000e+00, %17 ], [ %190, %57 ]
  %242 = phi float [ 0.000000e+00, %17 ], [ %191, %57 ]
  %243 = phi float [ 0.000000e+00, %17 ], [ %192, %57 ]
  %244 = phi float [ 0.000000e+00, %17 ], [ %193, %57 ]
  %245 = phi float [ 0.000000e+00, %17 ], [ %194, %57 ]
  %246 = phi float [ 0.000000e+00, %17 ], [ %195, %57 ]
  %247 = phi float [ 0.000000e+00, %17 ], [ %196, %57 ]
  %248 = phi float [ 0.000000e+00, %17 ], [ %197, %57 ]
  %249 = phi float [ 0.000000e+00, %17 ], [ %198, %57 ]
  %250 = phi float [ 0.000000e+00, %17 ], [ %199, %57 ]
  %251 = phi float [ 0.000000e+00, %17 ], [ %200, %57 ]
  %252 = phi float [ 0.000000e+00, %17 ], [ %201, %57 ]
  %253 = phi float [ 0.000000e+00, %17 ], [ %202, %57 ]
  %254 = phi float [ 0.000000e+00, %17 ], [ %203, %57 ]
  %255 = phi float [ 0.000000e+00, %17 ], [ %204, %57 ]
  %256 = phi float [ 0.000000e+00, %17 ], [ %205, %57 ]
  %257 = phi float [ 0.000000e+00, %17 ], [ %206, %57 ]
  %258 = phi float [ 0.000000e+00, %17 ], [ %207, %57 ]
  %259 = phi float [ 0.000000e+00, %17 ], [ %208, %57 ]
  %260 = phi float [ 0.000000e+00, %17 ], [ %209, %57 ]
  %261 = phi float [ 0.000000e+00, %17 ], [ %210, %57 ]
  %262 = phi float [ 0.000000e+00, %17 ], [ %211, %57 ]
  %263 = phi float [ 0.000000e+00, %17 ], [ %212, %57 ]
  %264 = phi float [ 0.000000e+00, %17 ], [ %213, %57 ]
  %265 = phi float [ 0.000000e+00, %17 ], [ %214, %57 ]
  %266 = phi float [ 0.000000e+00, %17 ], [ %215, %57 ]
  %267 = phi float [ 0.000000e+00, %17 ], [ %216, %57 ]
  %268 = phi float [ 0.000000e+00, %17 ], [ %217, %57 ]
  %269 = phi float [ 0.000000e+00, %17 ], [ %218, %57 ]
  %270 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "// wait for regs: $0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %238, float %239, float %240, float %241, float %242, float %243, float %244, float %245, float %246, float %247, float %248, float %249, float %250, float %251, float %252, float %253, float %254, float %255, float %256, float %257, float %258, float %259, float %260, float %261, float %262, float %263, float %264, float %265, float %266, float %267, float %268, float %269) #6, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %271 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %272 = extractvalue { i32, i1 } %271, 1, !dbg !18
  %273 = and i1 %23, %272, !dbg !18
  call void asm sideeffect "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r"(i1 %273, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24576)) #6, !dbg !18
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !18
  %274 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %275 = extractvalue { i32, i1 } %274, 1, !dbg !18
  %276 = and i1 %23, %275, !dbg !18
  call void asm sideeffect "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r"(i1 %276, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24584)) #6, !dbg !18
  %277 = call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1), !dbg !18
  %278 = extractvalue { i32, i1 } %277, 1, !dbg !18
  %279 = and i1 %23, %278, !dbg !18
  call void asm sideeffect "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r"(i1 %279, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 24592)) #6, !dbg !18
  %280 = and i32 %22, 64, !dbg !22
  %281 = lshr exact i32 %280, 6, !dbg !22
  %282 = and i32 %22, 63, !dbg !22
  %283 = or disjoint i32 %281, %20, !dbg !23
  %284 = or disjoint i32 %283, 2, !dbg !23
  %285 = or disjoint i32 %283, 4, !dbg !23
  %286 = or disjoint i32 %283, 6, !dbg !23
  %287 = or disjoint i32 %283, 8, !dbg !23
  %288 = or disjoint i32 %283, 10, !dbg !23
  %289 = or disjoint i32 %283, 12, !dbg !23
  %290 = or disjoint i32 %283, 14, !dbg !23
  %291 = or disjoint i32 %283, 16, !dbg !23
  %292 = or disjoint i32 %283, 18, !dbg !23
  %293 = or disjoint i32 %283, 20, !dbg !23
  %294 = or disjoint i32 %283, 22, !dbg !23
  %295 = or disjoint i32 %283, 24, !dbg !23
  %296 = or disjoint i32 %283, 26, !dbg !23
  %297 = or disjoint i32 %283, 28, !dbg !23
  %298 = or disjoint i32 %283, 30, !dbg !23
  %299 = or disjoint i32 %283, 32, !dbg !23
  %300 = or disjoint i32 %283, 34, !dbg !23
  %301 = or disjoint i32 %283, 36, !dbg !23
  %302 = or disjoint i32 %283, 38, !dbg !23
  %303 = or disjoint i32 %283, 40, !dbg !23
  %304 = or disjoint i32 %283, 42, !dbg !23
  %305 = or disjoint i32 %283, 44, !dbg !23
  %306 = or disjoint i32 %283, 46, !dbg !23
  %307 = or disjoint i32 %283, 48, !dbg !23
  %308 = or disjoint i32 %283, 50, !dbg !23
  %309 = or disjoint i32 %283, 52, !dbg !23
  %310 = or disjoint i32 %283, 54, !dbg !23
  %311 = or disjoint i32 %283, 56, !dbg !23
  %312 = or disjoint i32 %283, 58, !dbg !23
  %313 = or disjoint i32 %283, 60, !dbg !23
  %314 = or disjoint i32 %283, 62, !dbg !23
  %315 = or disjoint i32 %21, %282, !dbg !24
  %316 = icmp slt i32 %283, %11, !dbg !25
  %317 = icmp slt i32 %284, %11, !dbg !25
  %318 = icmp slt i32 %285, %11, !dbg !25
  %319 = icmp slt i32 %286, %11, !dbg !25
  %320 = icmp slt i32 %287, %11, !dbg !25
  %321 = icmp slt i32 %288, %11, !dbg !25
  %322 = icmp slt i32 %289, %11, !dbg !25
  %323 = icmp slt i32 %290, %11, !dbg !25
  %324 = icmp slt i32 %291, %11, !dbg !25
  %325 = icmp slt i32 %292, %11, !dbg !25
  %326 = icmp slt i32 %293, %11, !dbg !25
  %327 = icmp slt i32 %294, %11, !dbg !25
  %328 = icmp slt i32 %295, %11, !dbg !25
  %329 = icmp slt i32 %296, %11, !dbg !25
  %330 = icmp slt i32 %297, %11, !dbg !25
  %331 = icmp slt i32 %298, %11, !dbg !25
  %332 = icmp slt i32 %299, %11, !dbg !25
  %333 = icmp slt i32 %300, %11, !dbg !25
  %334 = icmp slt i32 %301, %11, !dbg !25
  %335 = icmp slt i32 %302, %11, !dbg !25
  %336 = icmp slt i32 %303, %11, !dbg !25
  %337 = icmp slt i32 %304, %11, !dbg !25
  %338 = icmp slt i32 %305, %11, !dbg !25
  %339 = icmp slt i32 %306, %11, !dbg !25
  %340 = icmp slt i32 %307, %11, !dbg !25
  %341 = icmp slt i32 %308, %11, !dbg !25
  %342 = icmp slt i32 %309, %11, !dbg !25
  %343 = icmp slt i32 %310, %11, !dbg !25
  %344 = icmp slt i32 %311, %11, !dbg !25
  %345 = icmp slt i32 %312, %11, !dbg !25
  %346 = icmp slt i32 %313, %11, !dbg !25
  %347 = icmp slt i32 %314, %11, !dbg !25
  %348 = icmp slt i32 %315, %12, !dbg !26
  %349 = and i1 %316, %348, !dbg !27
  %350 = and i1 %317, %348, !dbg !27
  %351 = and i1 %318, %348, !dbg !27
  %352 = and i1 %319, %348, !dbg !27
  %353 = and i1 %320, %348, !dbg !27
  %354 = and i1 %321, %348, !dbg !27
  %355 = and i1 %322, %348, !dbg !27
  %356 = and i1 %323, %348, !dbg !27
  %357 = and i1 %324, %348, !dbg !27
  %358 = and i1 %325, %348, !dbg !27
  %359 = and i1 %326, %348, !dbg !27
  %360 = and i1 %327, %348, !dbg !27
  %361 = and i1 %328, %348, !dbg !27
  %362 = and i1 %329, %348, !dbg !27
  %363 = and i1 %330, %348, !dbg !27
  %364 = and i1 %331, %348, !dbg !27
  %365 = and i1 %332, %348, !dbg !27
  %366 = and i1 %333, %348, !dbg !27
  %367 = and i1 %334, %348, !dbg !27
  %368 = and i1 %335, %348, !dbg !27
  %369 = and i1 %336, %348, !dbg !27
  %370 = and i1 %337, %348, !dbg !27
  %371 = and i1 %338, %348, !dbg !27
  %372 = and i1 %339, %348, !dbg !27
  %373 = and i1 %340, %348, !dbg !27
  %374 = and i1 %341, %348, !dbg !27
  %375 = and i1 %342, %348, !dbg !27
  %376 = and i1 %343, %348, !dbg !27
  %377 = and i1 %344, %348, !dbg !27
  %378 = and i1 %345, %348, !dbg !27
  %379 = and i1 %346, %348, !dbg !27
  %380 = and i1 %347, %348, !dbg !27
  %381 = mul i32 %14, %283, !dbg !28
  %382 = mul i32 %14, %284, !dbg !28
  %383 = mul i32 %14, %285, !dbg !28
  %384 = mul i32 %14, %286, !dbg !28
  %385 = mul i32 %14, %287, !dbg !28
  %386 = mul i32 %14, %288, !dbg !28
  %387 = mul i32 %14, %289, !dbg !28
  %388 = mul i32 %14, %290, !dbg !28
  %389 = mul i32 %14, %291, !dbg !28
  %390 = mul i32 %14, %292, !dbg !28
  %391 = mul i32 %14, %293, !dbg !28
  %392 = mul i32 %14, %294, !dbg !28
  %393 = mul i32 %14, %295, !dbg !28
  %394 = mul i32 %14, %296, !dbg !28
  %395 = mul i32 %14, %297, !dbg !28
  %396 = mul i32 %14, %298, !dbg !28
  %397 = mul i32 %14, %299, !dbg !28
  %398 = mul i32 %14, %300, !dbg !28
  %399 = mul i32 %14, %301, !dbg !28
  %400 = mul i32 %14, %302, !dbg !28
  %401 = mul i32 %14, %303, !dbg !28
  %402 = mul i32 %14, %304, !dbg !28
  %403 = mul i32 %14, %305, !dbg !28
  %404 = mul i32 %14, %306, !dbg !28
  %405 = mul i32 %14, %307, !dbg !28
  %406 = mul i32 %14, %308, !dbg !28
  %407 = mul i32 %14, %309, !dbg !28
  %408 = mul i32 %14, %310, !dbg !28
  %409 = mul i32 %14, %311, !dbg !28
  %410 = mul i32 %14, %312, !dbg !28
  %411 = mul i32 %14, %313, !dbg !28
  %412 = mul i32 %14, %314, !dbg !28
  %413 = sext i32 %381 to i64, !dbg !29
  %414 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %413, !dbg !29
  %415 = sext i32 %382 to i64, !dbg !29
  %416 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %415, !dbg !29
  %417 = sext i32 %383 to i64, !dbg !29
  %418 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %417, !dbg !29
  %419 = sext i32 %384 to i64, !dbg !29
  %420 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %419, !dbg !29
  %421 = sext i32 %385 to i64, !dbg !29
  %422 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %421, !dbg !29
  %423 = sext i32 %386 to i64, !dbg !29
  %424 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %423, !dbg !29
  %425 = sext i32 %387 to i64, !dbg !29
  %426 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %425, !dbg !29
  %427 = sext i32 %388 to i64, !dbg !29
  %428 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %427, !dbg !29
  %429 = sext i32 %389 to i64, !dbg !29
  %430 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %429, !dbg !29
  %431 = sext i32 %390 to i64, !dbg !29
  %432 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %431, !dbg !29
  %433 = sext i32 %391 to i64, !dbg !29
  %434 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %433, !dbg !29
  %435 = sext i32 %392 to i64, !dbg !29
  %436 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %435, !dbg !29
  %437 = sext i32 %393 to i64, !dbg !29
  %438 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %437, !dbg !29
  %439 = sext i32 %394 to i64, !dbg !29
  %440 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %439, !dbg !29
  %441 = sext i32 %395 to i64, !dbg !29
  %442 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %441, !dbg !29
  %443 = sext i32 %396 to i64, !dbg !29
  %444 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %443, !dbg !29
  %445 = sext i32 %397 to i64, !dbg !29
  %446 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %445, !dbg !29
  %447 = sext i32 %398 to i64, !dbg !29
  %448 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %447, !dbg !29
  %449 = sext i32 %399 to i64, !dbg !29
  %450 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %449, !dbg !29
  %451 = sext i32 %400 to i64, !dbg !29
  %452 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %451, !dbg !29
  %453 = sext i32 %401 to i64, !dbg !29
  %454 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %453, !dbg !29
  %455 = sext i32 %402 to i64, !dbg !29
  %456 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %455, !dbg !29
  %457 = sext i32 %403 to i64, !dbg !29
  %458 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %457, !dbg !29
  %459 = sext i32 %404 to i64, !dbg !29
  %460 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %459, !dbg !29
  %461 = sext i32 %405 to i64, !dbg !29
  %462 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %461, !dbg !29
  %463 = sext i32 %406 to i64, !dbg !29
  %464 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %463, !dbg !29
  %465 = sext i32 %407 to i64, !dbg !29
  %466 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %465, !dbg !29
  %467 = sext i32 %408 to i64, !dbg !29
  %468 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %467, !dbg !29
  %469 = sext i32 %409 to i64, !dbg !29
  %470 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %469, !dbg !29
  %471 = sext i32 %410 to i64, !dbg !29
  %472 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %471, !dbg !29
  %473 = sext i32 %411 to i64, !dbg !29
  %474 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %473, !dbg !29
  %475 = sext i32 %412 to i64, !dbg !29
  %476 = getelementptr [4 x i8], ptr addrspace(1) %10, i64 %475, !dbg !29
  %477 = zext nneg i32 %315 to i64, !dbg !29
  %478 = getelementptr [4 x i8], ptr addrspace(1) %414, i64 %477, !dbg !29
  %479 = getelementptr [4 x i8], ptr addrspace(1) %416, i64 %477, !dbg !29
  %480 = getelementptr [4 x i8], ptr addrspace(1) %418, i64 %477, !dbg !29
  %481 = getelementptr [4 x i8], ptr addrspace(1) %420, i64 %477, !dbg !29
  %482 = getelementptr [4 x i8], ptr addrspace(1) %422, i64 %477, !dbg !29
  %483 = getelementptr [4 x i8], ptr addrspace(1) %424, i64 %477, !dbg !29
  %484 = getelementptr [4 x i8], ptr addrspace(1) %426, i64 %477, !dbg !29
  %485 = getelementptr [4 x i8], ptr addrspace(1) %428, i64 %477, !dbg !29
  %486 = getelementptr [4 x i8], ptr addrspace(1) %430, i64 %477, !dbg !29
  %487 = getelementptr [4 x i8], ptr addrspace(1) %432, i64 %477, !dbg !29
  %488 = getelementptr [4 x i8], ptr addrspace(1) %434, i64 %477, !dbg !29
  %489 = getelementptr [4 x i8], ptr addrspace(1) %436, i64 %477, !dbg !29
  %490 = getelementptr [4 x i8], ptr addrspace(1) %438, i64 %477, !dbg !29
  %491 = getelementptr [4 x i8], ptr addrspace(1) %440, i64 %477, !dbg !29
  %492 = getelementptr [4 x i8], ptr addrspace(1) %442, i64 %477, !dbg !29
  %493 = getelementptr [4 x i8], ptr addrspace(1) %444, i64 %477, !dbg !29
  %494 = getelementptr [4 x i8], ptr addrspace(1) %446, i64 %477, !dbg !29
  %495 = getelementptr [4 x i8], ptr addrspace(1) %448, i64 %477, !dbg !29
  %496 = getelementptr [4 x i8], ptr addrspace(1) %450, i64 %477, !dbg !29
  %497 = getelementptr [4 x i8], ptr addrspace(1) %452, i64 %477, !dbg !29
  %498 = getelementptr [4 x i8], ptr addrspace(1) %454, i64 %477, !dbg !29
  %499 = getelementptr [4 x i8], ptr addrspace(1) %456, i64 %477, !dbg !29
  %500 = getelementptr [4 x i8], ptr addrspace(1) %458, i64 %477, !dbg !29
  %501 = getelementptr [4 x i8], ptr addrspace(1) %460, i64 %477, !dbg !29
  %502 = getelementptr [4 x i8], ptr addrspace(1) %462, i64 %477, !dbg !29
  %503 = getelementptr [4 x i8], ptr addrspace(1) %464, i64 %477, !dbg !29
  %504 = getelementptr [4 x i8], ptr addrspace(1) %466, i64 %477, !dbg !29
  %505 = getelementptr [4 x i8], ptr addrspace(1) %468, i64 %477, !dbg !29
  %506 = getelementptr [4 x i8], ptr addrspace(1) %470, i64 %477, !dbg !29
  %507 = getelementptr [4 x i8], ptr addrspace(1) %472, i64 %477, !dbg !29
  %508 = getelementptr [4 x i8], ptr addrspace(1) %474, i64 %477, !dbg !29
  %509 = getelementptr [4 x i8], ptr addrspace(1) %476, i64 %477, !dbg !29
  %510 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 0, !dbg !30
  %511 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 1, !dbg !30
  %512 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 2, !dbg !30
  %513 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 3, !dbg !30
  %514 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 4, !dbg !30
  %515 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 5, !dbg !30
  %516 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 6, !dbg !30
  %517 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 7, !dbg !30
  %518 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 8, !dbg !30
  %519 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 9, !dbg !30
  %520 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 10, !dbg !30
  %521 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 11, !dbg !30
  %522 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 12, !dbg !30
  %523 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 13, !dbg !30
  %524 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 14, !dbg !30
  %525 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 15, !dbg !30
  %526 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 16, !dbg !30
  %527 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 17, !dbg !30
  %528 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 18, !dbg !30
  %529 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 19, !dbg !30
  %530 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 20, !dbg !30
  %531 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 21, !dbg !30
  %532 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 22, !dbg !30
  %533 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 23, !dbg !30
  %534 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 24, !dbg !30
  %535 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 25, !dbg !30
  %536 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 26, !dbg !30
  %537 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 27, !dbg !30
  %538 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 28, !dbg !30
  %539 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 29, !dbg !30
  %540 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 30, !dbg !30
  %541 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %270, 31, !dbg !30
  %542 = and i32 %22, 12, !dbg !30
  %543 = shl nuw nsw i32 %542, 10, !dbg !30
  %544 = shl nuw nsw i32 %22, 5, !dbg !30
  %545 = and i32 %544, 96, !dbg !30
  %546 = shl nuw nsw i32 %542, 1, !dbg !30
  %547 = or disjoint i32 %543, %545, !dbg !30
  %548 = or disjoint i32 %547, %546, !dbg !30
  %549 = insertelement <2 x float> poison, float %510, i64 0, !dbg !30
  %550 = insertelement <2 x float> %549, float %512, i64 1, !dbg !30
  %551 = insertelement <2 x float> poison, float %518, i64 0, !dbg !30
  %552 = insertelement <2 x float> %551, float %520, i64 1, !dbg !30
  %553 = insertelement <2 x float> poison, float %526, i64 0, !dbg !30
  %554 = insertelement <2 x float> %553, float %528, i64 1, !dbg !30
  %555 = insertelement <2 x float> poison, float %534, i64 0, !dbg !30
  %556 = insertelement <2 x float> %555, float %536, i64 1, !dbg !30
  %557 = insertelement <2 x float> poison, float %511, i64 0, !dbg !30
  %558 = insertelement <2 x float> %557, float %513, i64 1, !dbg !30
  %559 = insertelement <2 x float> poison, float %519, i64 0, !dbg !30
  %560 = insertelement <2 x float> %559, float %521, i64 1, !dbg !30
  %561 = insertelement <2 x float> poison, float %527, i64 0, !dbg !30
  %562 = insertelement <2 x float> %561, float %529, i64 1, !dbg !30
  %563 = insertelement <2 x float> poison, float %535, i64 0, !dbg !30
  %564 = insertelement <2 x float> %563, float %537, i64 1, !dbg !30
  %565 = insertelement <2 x float> poison, float %514, i64 0, !dbg !30
  %566 = insertelement <2 x float> %565, float %516, i64 1, !dbg !30
  %567 = insertelement <2 x float> poison, float %522, i64 0, !dbg !30
  %568 = insertelement <2 x float> %567, float %524, i64 1, !dbg !30
  %569 = insertelement <2 x float> poison, float %530, i64 0, !dbg !30
  %570 = insertelement <2 x float> %569, float %532, i64 1, !dbg !30
  %571 = insertelement <2 x float> poison, float %538, i64 0, !dbg !30
  %572 = insertelement <2 x float> %571, float %540, i64 1, !dbg !30
  %573 = insertelement <2 x float> poison, float %515, i64 0, !dbg !30
  %574 = insertelement <2 x float> %573, float %517, i64 1, !dbg !30
  %575 = insertelement <2 x float> poison, float %523, i64 0, !dbg !30
  %576 = insertelement <2 x float> %575, float %525, i64 1, !dbg !30
  %577 = insertelement <2 x float> poison, float %531, i64 0, !dbg !30
  %578 = insertelement <2 x float> %577, float %533, i64 1, !dbg !30
  %579 = insertelement <2 x float> poison, float %539, i64 0, !dbg !30
  %580 = insertelement <2 x float> %579, float %541, i64 1, !dbg !30
  %581 = icmp eq i32 %280, 0, !dbg !30
  %582 = select i1 %581, i32 0, i32 4104, !dbg !30
  %583 = shl nuw nsw i32 %22, 3, !dbg !30
  %584 = and i32 %583, 896, !dbg !30
  %585 = or disjoint i32 %548, %584, !dbg !30
  %586 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %585, !dbg !30
  store <2 x float> %550, ptr addrspace(3) %586, align 8, !dbg !30
  %587 = getelementptr inbounds nuw i8, ptr addrspace(3) %586, i32 1024, !dbg !30
  store <2 x float> %552, ptr addrspace(3) %587, align 8, !dbg !30
  %588 = getelementptr inbounds nuw i8, ptr addrspace(3) %586, i32 2048, !dbg !30
  store <2 x float> %554, ptr addrspace(3) %588, align 8, !dbg !30
  %589 = getelementptr inbounds nuw i8, ptr addrspace(3) %586, i32 3072, !dbg !30
  store <2 x float> %556, ptr addrspace(3) %589, align 8, !dbg !30
  %590 = xor i32 %585, 8, !dbg !30
  %591 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %590, !dbg !30
  store <2 x float> %558, ptr addrspace(3) %591, align 8, !dbg !30
  %592 = getelementptr inbounds nuw i8, ptr addrspace(3) %591, i32 1024, !dbg !30
  store <2 x float> %560, ptr addrspace(3) %592, align 8, !dbg !30
  %593 = getelementptr inbounds nuw i8, ptr addrspace(3) %591, i32 2048, !dbg !30
  store <2 x float> %562, ptr addrspace(3) %593, align 8, !dbg !30
  %594 = getelementptr inbounds nuw i8, ptr addrspace(3) %591, i32 3072, !dbg !30
  store <2 x float> %564, ptr addrspace(3) %594, align 8, !dbg !30
  %595 = xor i32 %585, 16, !dbg !30
  %596 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %595, !dbg !30
  store <2 x float> %566, ptr addrspace(3) %596, align 8, !dbg !30
  %597 = getelementptr inbounds nuw i8, ptr addrspace(3) %596, i32 1024, !dbg !30
  store <2 x float> %568, ptr addrspace(3) %597, align 8, !dbg !30
  %598 = getelementptr inbounds nuw i8, ptr addrspace(3) %596, i32 2048, !dbg !30
  store <2 x float> %570, ptr addrspace(3) %598, align 8, !dbg !30
  %599 = getelementptr inbounds nuw i8, ptr addrspace(3) %596, i32 3072, !dbg !30
  store <2 x float> %572, ptr addrspace(3) %599, align 8, !dbg !30
  %600 = xor i32 %585, 24, !dbg !30
  %601 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %600, !dbg !30
  store <2 x float> %574, ptr addrspace(3) %601, align 8, !dbg !30
  %602 = getelementptr inbounds nuw i8, ptr addrspace(3) %601, i32 1024, !dbg !30
  store <2 x float> %576, ptr addrspace(3) %602, align 8, !dbg !30
  %603 = getelementptr inbounds nuw i8, ptr addrspace(3) %601, i32 2048, !dbg !30
  store <2 x float> %578, ptr addrspace(3) %603, align 8, !dbg !30
  %604 = getelementptr inbounds nuw i8, ptr addrspace(3) %601, i32 3072, !dbg !30
  store <2 x float> %580, ptr addrspace(3) %604, align 8, !dbg !30
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !30
  %605 = and i32 %583, 8, !dbg !30
  %606 = insertelement <4 x i32> poison, i32 %22, i64 0, !dbg !30
  %607 = insertelement <4 x i32> %606, i32 %605, i64 1, !dbg !30
  %608 = shufflevector <4 x i32> %607, <4 x i32> poison, <4 x i32> <i32 0, i32 0, i32 0, i32 1>, !dbg !30
  %609 = shl nuw nsw <4 x i32> %608, <i32 6, i32 4, i32 1, i32 0>, !dbg !30
  %610 = insertelement <4 x i32> <i32 3072, i32 96, i32 16, i32 poison>, i32 %582, i64 3, !dbg !30
  %611 = and <4 x i32> %610, %609, !dbg !30
  %612 = xor <4 x i32> %610, %609, !dbg !30
  %613 = shufflevector <4 x i32> %611, <4 x i32> %612, <4 x i32> <i32 0, i32 1, i32 2, i32 7>, !dbg !30
  %614 = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %613), !dbg !30
  %615 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %614, !dbg !30
  %616 = load <2 x i32>, ptr addrspace(3) %615, align 8, !dbg !30
  %617 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 128, !dbg !30
  %618 = load <2 x i32>, ptr addrspace(3) %617, align 8, !dbg !30
  %619 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 256, !dbg !30
  %620 = load <2 x i32>, ptr addrspace(3) %619, align 8, !dbg !30
  %621 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 384, !dbg !30
  %622 = load <2 x i32>, ptr addrspace(3) %621, align 8, !dbg !30
  %623 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 512, !dbg !30
  %624 = load <2 x i32>, ptr addrspace(3) %623, align 8, !dbg !30
  %625 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 640, !dbg !30
  %626 = load <2 x i32>, ptr addrspace(3) %625, align 8, !dbg !30
  %627 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 768, !dbg !30
  %628 = load <2 x i32>, ptr addrspace(3) %627, align 8, !dbg !30
  %629 = getelementptr inbounds nuw i8, ptr addrspace(3) %615, i32 896, !dbg !30
  %630 = load <2 x i32>, ptr addrspace(3) %629, align 8, !dbg !30
  %631 = xor i32 %614, 8208, !dbg !30
  %632 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %631, !dbg !30
  %633 = load <2 x i32>, ptr addrspace(3) %632, align 8, !dbg !30
  %634 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 128, !dbg !30
  %635 = load <2 x i32>, ptr addrspace(3) %634, align 8, !dbg !30
  %636 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 256, !dbg !30
  %637 = load <2 x i32>, ptr addrspace(3) %636, align 8, !dbg !30
  %638 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 384, !dbg !30
  %639 = load <2 x i32>, ptr addrspace(3) %638, align 8, !dbg !30
  %640 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 512, !dbg !30
  %641 = load <2 x i32>, ptr addrspace(3) %640, align 8, !dbg !30
  %642 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 640, !dbg !30
  %643 = load <2 x i32>, ptr addrspace(3) %642, align 8, !dbg !30
  %644 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 768, !dbg !30
  %645 = load <2 x i32>, ptr addrspace(3) %644, align 8, !dbg !30
  %646 = getelementptr inbounds nuw i8, ptr addrspace(3) %632, i32 896, !dbg !30
  %647 = load <2 x i32>, ptr addrspace(3) %646, align 8, !dbg !30
  %.extract = extractelement <2 x i32> %616, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract, ptr addrspace(1) %478, i1 %349) #6, !dbg !30
  %.extract33 = extractelement <2 x i32> %633, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract33, ptr addrspace(1) %479, i1 %350) #6, !dbg !30
  %.extract34 = extractelement <2 x i32> %618, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract34, ptr addrspace(1) %480, i1 %351) #6, !dbg !30
  %.extract35 = extractelement <2 x i32> %635, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract35, ptr addrspace(1) %481, i1 %352) #6, !dbg !30
  %.extract36 = extractelement <2 x i32> %616, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract36, ptr addrspace(1) %482, i1 %353) #6, !dbg !30
  %.extract37 = extractelement <2 x i32> %633, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract37, ptr addrspace(1) %483, i1 %354) #6, !dbg !30
  %.extract38 = extractelement <2 x i32> %618, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract38, ptr addrspace(1) %484, i1 %355) #6, !dbg !30
  %.extract39 = extractelement <2 x i32> %635, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract39, ptr addrspace(1) %485, i1 %356) #6, !dbg !30
  %.extract40 = extractelement <2 x i32> %620, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract40, ptr addrspace(1) %486, i1 %357) #6, !dbg !30
  %.extract41 = extractelement <2 x i32> %637, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract41, ptr addrspace(1) %487, i1 %358) #6, !dbg !30
  %.extract42 = extractelement <2 x i32> %622, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract42, ptr addrspace(1) %488, i1 %359) #6, !dbg !30
  %.extract43 = extractelement <2 x i32> %639, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract43, ptr addrspace(1) %489, i1 %360) #6, !dbg !30
  %.extract44 = extractelement <2 x i32> %620, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract44, ptr addrspace(1) %490, i1 %361) #6, !dbg !30
  %.extract45 = extractelement <2 x i32> %637, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract45, ptr addrspace(1) %491, i1 %362) #6, !dbg !30
  %.extract46 = extractelement <2 x i32> %622, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract46, ptr addrspace(1) %492, i1 %363) #6, !dbg !30
  %.extract47 = extractelement <2 x i32> %639, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract47, ptr addrspace(1) %493, i1 %364) #6, !dbg !30
  %.extract48 = extractelement <2 x i32> %624, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract48, ptr addrspace(1) %494, i1 %365) #6, !dbg !30
  %.extract49 = extractelement <2 x i32> %641, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract49, ptr addrspace(1) %495, i1 %366) #6, !dbg !30
  %.extract50 = extractelement <2 x i32> %626, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract50, ptr addrspace(1) %496, i1 %367) #6, !dbg !30
  %.extract51 = extractelement <2 x i32> %643, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract51, ptr addrspace(1) %497, i1 %368) #6, !dbg !30
  %.extract52 = extractelement <2 x i32> %624, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract52, ptr addrspace(1) %498, i1 %369) #6, !dbg !30
  %.extract53 = extractelement <2 x i32> %641, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract53, ptr addrspace(1) %499, i1 %370) #6, !dbg !30
  %.extract54 = extractelement <2 x i32> %626, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract54, ptr addrspace(1) %500, i1 %371) #6, !dbg !30
  %.extract55 = extractelement <2 x i32> %643, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract55, ptr addrspace(1) %501, i1 %372) #6, !dbg !30
  %.extract56 = extractelement <2 x i32> %628, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract56, ptr addrspace(1) %502, i1 %373) #6, !dbg !30
  %.extract57 = extractelement <2 x i32> %645, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract57, ptr addrspace(1) %503, i1 %374) #6, !dbg !30
  %.extract58 = extractelement <2 x i32> %630, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract58, ptr addrspace(1) %504, i1 %375) #6, !dbg !30
  %.extract59 = extractelement <2 x i32> %647, i64 0, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract59, ptr addrspace(1) %505, i1 %376) #6, !dbg !30
  %.extract60 = extractelement <2 x i32> %628, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract60, ptr addrspace(1) %506, i1 %377) #6, !dbg !30
  %.extract61 = extractelement <2 x i32> %645, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract61, ptr addrspace(1) %507, i1 %378) #6, !dbg !30
  %.extract62 = extractelement <2 x i32> %630, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract62, ptr addrspace(1) %508, i1 %379) #6, !dbg !30
  %.extract63 = extractelement <2 x i32> %647, i64 1, !dbg !30
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract63, ptr addrspace(1) %509, i1 %380) #6, !dbg !30
  ret void, !dbg !31
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare { i32, i1 } @llvm.nvvm.elect.sync(i32) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.fence.sync.aligned() #4

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned() #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>) #5

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { convergent nounwind }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "tma_matmul", linkageName: "tma_matmul", scope: !1, file: !1, line: 64, type: !5, scopeLine: 64, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{null, !7, !9, !9, !10, !10, !7, !9, !9, !10, !10, !11, !9, !9, !9, !9, !13, !13}
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 0)
!8 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DIBasicType(name: "int", size: 64, encoding: DW_ATE_signed)
!11 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !12, size: 64, dwarfAddressSpace: 1)
!12 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 1)
!14 = !DILocation(line: 68, column: 13, scope: !4)
!15 = !DILocation(line: 69, column: 13, scope: !4)
!16 = !DILocation(line: 72, column: 26, scope: !4)
!17 = !DILocation(line: 73, column: 29, scope: !4)
!18 = !DILocation(line: 71, column: 5, scope: !4)
!19 = !DILocation(line: 72, column: 13, scope: !4)
!20 = !DILocation(line: 73, column: 13, scope: !4)
!21 = !DILocation(line: 74, column: 16, scope: !4)
!22 = !DILocation(line: 75, column: 23, scope: !4)
!23 = !DILocation(line: 75, column: 10, scope: !4)
!24 = !DILocation(line: 76, column: 10, scope: !4)
!25 = !DILocation(line: 78, column: 20, scope: !4)
!26 = !DILocation(line: 78, column: 40, scope: !4)
!27 = !DILocation(line: 78, column: 19, scope: !4)
!28 = !DILocation(line: 77, column: 18, scope: !4)
!29 = !DILocation(line: 77, column: 14, scope: !4)
!30 = !DILocation(line: 77, column: 5, scope: !4)
!31 = !DILocation(line: 64, column: 1, scope: !4)
