; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @matmul(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, i32 %4, i32 %5, i32 %6, i32 %7, i32 %8, ptr addrspace(1) nofree readnone captures(none) %9, ptr addrspace(1) nofree readnone captures(none) %10) local_unnamed_addr #0 !dbg !4 {
  %12 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !12
  %13 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !13
  %14 = shl i32 %12, 5, !dbg !14
  %15 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !15
  %16 = and i32 %15, 96, !dbg !15
  %17 = lshr exact i32 %16, 5, !dbg !15
  %18 = or disjoint i32 %17, 4, !dbg !15
  %19 = or disjoint i32 %17, 8, !dbg !15
  %20 = or disjoint i32 %17, 12, !dbg !15
  %21 = or disjoint i32 %17, 16, !dbg !15
  %22 = or disjoint i32 %17, 20, !dbg !15
  %23 = or disjoint i32 %17, 24, !dbg !15
  %24 = or disjoint i32 %17, 28, !dbg !15
  %25 = and i32 %15, 31, !dbg !15
  %26 = or disjoint i32 %17, %14, !dbg !14
  %27 = or disjoint i32 %18, %14, !dbg !14
  %28 = or disjoint i32 %19, %14, !dbg !14
  %29 = or disjoint i32 %20, %14, !dbg !14
  %30 = or disjoint i32 %21, %14, !dbg !14
  %31 = or disjoint i32 %22, %14, !dbg !14
  %32 = or disjoint i32 %23, %14, !dbg !14
  %33 = or disjoint i32 %24, %14, !dbg !14
  %34 = shl nuw nsw i32 %13, 5, !dbg !16
  %35 = or disjoint i32 %34, %25, !dbg !16
  %36 = icmp slt i32 %26, %3, !dbg !17
  %37 = icmp slt i32 %27, %3, !dbg !17
  %38 = icmp slt i32 %28, %3, !dbg !17
  %39 = icmp slt i32 %29, %3, !dbg !17
  %40 = icmp slt i32 %30, %3, !dbg !17
  %41 = icmp slt i32 %31, %3, !dbg !17
  %42 = icmp slt i32 %32, %3, !dbg !17
  %43 = icmp slt i32 %33, %3, !dbg !17
  %44 = icmp slt i32 %35, %4, !dbg !18
  %45 = mul i32 %6, %26, !dbg !19
  %46 = mul i32 %6, %27, !dbg !19
  %47 = mul i32 %6, %28, !dbg !19
  %48 = mul i32 %6, %29, !dbg !19
  %49 = mul i32 %6, %30, !dbg !19
  %50 = mul i32 %6, %31, !dbg !19
  %51 = mul i32 %6, %32, !dbg !19
  %52 = mul i32 %6, %33, !dbg !19
  %53 = sext i32 %45 to i64, !dbg !20
  %54 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %53, !dbg !20
  %55 = sext i32 %46 to i64, !dbg !20
  %56 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %55, !dbg !20
  %57 = sext i32 %47 to i64, !dbg !20
  %58 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %57, !dbg !20
  %59 = sext i32 %48 to i64, !dbg !20
  %60 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %59, !dbg !20
  %61 = sext i32 %49 to i64, !dbg !20
  %62 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %61, !dbg !20
  %63 = sext i32 %50 to i64, !dbg !20
  %64 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %63, !dbg !20
  %65 = sext i32 %51 to i64, !dbg !20
  %66 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %65, !dbg !20
  %67 = sext i32 %52 to i64, !dbg !20
  %68 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %67, !dbg !20
  %69 = icmp sgt i32 %5, 0, !dbg !21
  %70 = icmp slt i32 %25, %5, !dbg !22
  %71 = and i1 %36, %70, !dbg !23
  %72 = and i1 %37, %70, !dbg !23
  %73 = and i1 %38, %70, !dbg !23
  %74 = and i1 %39, %70, !dbg !23
  %75 = and i1 %40, %70, !dbg !23
  %76 = and i1 %41, %70, !dbg !23
  %77 = and i1 %42, %70, !dbg !23
  %78 = and i1 %43, %70, !dbg !23
  %79 = icmp slt i32 %17, %5, !dbg !24
  %80 = icmp slt i32 %18, %5, !dbg !24
  %81 = icmp slt i32 %19, %5, !dbg !24
  %82 = icmp slt i32 %20, %5, !dbg !24
  %83 = icmp slt i32 %21, %5, !dbg !24
  %84 = icmp slt i32 %22, %5, !dbg !24
  %85 = icmp slt i32 %23, %5, !dbg !24
  %86 = icmp slt i32 %24, %5, !dbg !24
  %87 = and i1 %44, %79, !dbg !25
  %88 = and i1 %44, %80, !dbg !25
  %89 = and i1 %44, %81, !dbg !25
  %90 = and i1 %44, %82, !dbg !25
  %91 = and i1 %44, %83, !dbg !25
  %92 = and i1 %44, %84, !dbg !25
  %93 = and i1 %44, %85, !dbg !25
  %94 = and i1 %44, %86, !dbg !25
  %95 = zext nneg i32 %25 to i64, !dbg !20
  %96 = getelementptr [4 x i8], ptr addrspace(1) %54, i64 %95, !dbg !20
  %97 = getelementptr [4 x i8], ptr addrspace(1) %56, i64 %95, !dbg !20
  %98 = getelementptr [4 x i8], ptr addrspace(1) %58, i64 %95, !dbg !20
  %99 = getelementptr [4 x i8], ptr addrspace(1) %60, i64 %95, !dbg !20
  %100 = getelementptr [4 x i8], ptr addrspace(1) %62, i64 %95, !dbg !20
  %101 = getelementptr [4 x i8], ptr addrspace(1) %64, i64 %95, !dbg !20
  %102 = getelementptr [4 x i8], ptr addrspace(1) %66, i64 %95, !dbg !20
  %103 = getelementptr [4 x i8], ptr addrspace(1) %68, i64 %95, !dbg !20
  %104 = shl nuw nsw i32 %15, 2, !dbg !26
  %105 = and i32 %104, 508, !dbg !26
  %106 = lshr exact i32 %16, 1, !dbg !26
  %107 = xor i32 %105, %106, !dbg !26
  %108 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %107, !dbg !26
  %109 = select i1 %71, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) %108, ptr addrspace(1) %96, i32 %109) #2, !dbg !26
  %110 = getelementptr inbounds nuw i8, ptr addrspace(3) %108, i32 1024, !dbg !26
  %111 = select i1 %73, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %110, ptr addrspace(1) %98, i32 %111) #2, !dbg !26
  %112 = getelementptr inbounds nuw i8, ptr addrspace(3) %108, i32 2048, !dbg !26
  %113 = select i1 %75, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %112, ptr addrspace(1) %100, i32 %113) #2, !dbg !26
  %114 = getelementptr inbounds nuw i8, ptr addrspace(3) %108, i32 3072, !dbg !26
  %115 = select i1 %77, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %114, ptr addrspace(1) %102, i32 %115) #2, !dbg !26
  %116 = xor i32 %107, 576, !dbg !26
  %117 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %116, !dbg !26
  %118 = select i1 %72, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %117, ptr addrspace(1) %97, i32 %118) #2, !dbg !26
  %119 = getelementptr inbounds nuw i8, ptr addrspace(3) %117, i32 1024, !dbg !26
  %120 = select i1 %74, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %119, ptr addrspace(1) %99, i32 %120) #2, !dbg !26
  %121 = getelementptr inbounds nuw i8, ptr addrspace(3) %117, i32 2048, !dbg !26
  %122 = select i1 %76, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %121, ptr addrspace(1) %101, i32 %122) #2, !dbg !26
  %123 = getelementptr inbounds nuw i8, ptr addrspace(3) %117, i32 3072, !dbg !26
  %124 = select i1 %78, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %123, ptr addrspace(1) %103, i32 %124) #2, !dbg !26
  tail call void @llvm.nvvm.cp.async.commit.group(), !dbg !26
  %125 = mul i32 %7, %17, !dbg !27
  %126 = mul i32 %7, %18, !dbg !27
  %127 = mul i32 %7, %19, !dbg !27
  %128 = mul i32 %7, %20, !dbg !27
  %129 = mul i32 %7, %21, !dbg !27
  %130 = mul i32 %7, %22, !dbg !27
  %131 = mul i32 %7, %23, !dbg !27
  %132 = mul i32 %7, %24, !dbg !27
  %133 = sext i32 %125 to i64, !dbg !28
  %134 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %133, !dbg !28
  %135 = sext i32 %126 to i64, !dbg !28
  %136 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %135, !dbg !28
  %137 = sext i32 %127 to i64, !dbg !28
  %138 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %137, !dbg !28
  %139 = sext i32 %128 to i64, !dbg !28
  %140 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %139, !dbg !28
  %141 = sext i32 %129 to i64, !dbg !28
  %142 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %141, !dbg !28
  %143 = sext i32 %130 to i64, !dbg !28
  %144 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %143, !dbg !28
  %145 = sext i32 %131 to i64, !dbg !28
  %146 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %145, !dbg !28
  %147 = sext i32 %132 to i64, !dbg !28
  %148 = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %147, !dbg !28
  %149 = zext nneg i32 %35 to i64, !dbg !28
  %150 = getelementptr [4 x i8], ptr addrspace(1) %134, i64 %149, !dbg !28
  %151 = getelementptr [4 x i8], ptr addrspace(1) %136, i64 %149, !dbg !28
  %152 = getelementptr [4 x i8], ptr addrspace(1) %138, i64 %149, !dbg !28
  %153 = getelementptr [4 x i8], ptr addrspace(1) %140, i64 %149, !dbg !28
  %154 = getelementptr [4 x i8], ptr addrspace(1) %142, i64 %149, !dbg !28
  %155 = getelementptr [4 x i8], ptr addrspace(1) %144, i64 %149, !dbg !28
  %156 = getelementptr [4 x i8], ptr addrspace(1) %146, i64 %149, !dbg !28
  %157 = getelementptr [4 x i8], ptr addrspace(1) %148, i64 %149, !dbg !28
  %158 = and i1 %69, %88, !dbg !21
  %159 = and i1 %69, %89, !dbg !21
  %160 = and i1 %69, %90, !dbg !21
  %161 = and i1 %69, %91, !dbg !21
  %162 = and i1 %69, %92, !dbg !21
  %163 = and i1 %69, %93, !dbg !21
  %164 = and i1 %69, %94, !dbg !21
  %165 = xor i32 %105, %16, !dbg !29
  %166 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %165, !dbg !29
  %167 = select i1 %87, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) %166, ptr addrspace(1) %150, i32 %167) #2, !dbg !29
  %168 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 512, !dbg !29
  %169 = select i1 %158, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %168, ptr addrspace(1) %151, i32 %169) #2, !dbg !29
  %170 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 1024, !dbg !29
  %171 = select i1 %159, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %170, ptr addrspace(1) %152, i32 %171) #2, !dbg !29
  %172 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 1536, !dbg !29
  %173 = select i1 %160, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %172, ptr addrspace(1) %153, i32 %173) #2, !dbg !29
  %174 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 2048, !dbg !29
  %175 = select i1 %161, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %174, ptr addrspace(1) %154, i32 %175) #2, !dbg !29
  %176 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 2560, !dbg !29
  %177 = select i1 %162, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %176, ptr addrspace(1) %155, i32 %177) #2, !dbg !29
  %178 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 3072, !dbg !29
  %179 = select i1 %163, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %178, ptr addrspace(1) %156, i32 %179) #2, !dbg !29
  %180 = getelementptr inbounds nuw i8, ptr addrspace(3) %166, i32 3584, !dbg !29
  %181 = select i1 %164, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %180, ptr addrspace(1) %157, i32 %181) #2, !dbg !29
  tail call void @llvm.nvvm.cp.async.commit.group(), !dbg !29
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !26
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !26
  %182 = and i32 %15, 15, !dbg !26
  %183 = shl nuw nsw i32 %182, 7, !dbg !26
  %184 = shl nuw nsw i32 %15, 4, !dbg !26
  %185 = and i32 %184, 112, !dbg !26
  %186 = and i32 %15, 16, !dbg !26
  %187 = and i32 %15, 64, !dbg !26
  %188 = shl nuw nsw i32 %187, 5, !dbg !26
  %189 = or disjoint i32 %183, %188, !dbg !26
  %190 = xor i32 %185, %186, !dbg !26
  %191 = or disjoint i32 %189, %190, !dbg !26
  %192 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %191, !dbg !26
  %193 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %192), !dbg !26
  %194 = and i32 %15, 3, !dbg !29
  %invariant.gep = getelementptr [4 x i8], ptr addrspace(1) %1, i64 %149, !dbg !21
  br i1 %69, label %.lr.ph, label %._crit_edge, !dbg !21

.lr.ph:                                           ; preds = %11
  %195 = mul nuw nsw i32 %194, 160, !dbg !29
  %196 = and i32 %15, 60, !dbg !29
  %197 = xor i32 %195, %196, !dbg !29
  %198 = xor i32 %197, 64, !dbg !29
  %199 = or disjoint i32 %198, 512, !dbg !29
  %200 = or disjoint i32 %197, 512, !dbg !29
  %201 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %199, !dbg !29
  %202 = load i32, ptr addrspace(3) %201, align 4, !dbg !29
  %203 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %198, !dbg !29
  %204 = load i32, ptr addrspace(3) %203, align 4, !dbg !29
  %205 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %200, !dbg !29
  %206 = load i32, ptr addrspace(3) %205, align 4, !dbg !29
  %207 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %197, !dbg !29
  %208 = load i32, ptr addrspace(3) %207, align 4, !dbg !29
  %209 = add nsw i32 %5, -32
  %210 = xor i32 %191, 32
  %211 = xor i32 %197, 1088
  %212 = xor i32 %191, 64
  %213 = xor i32 %197, 2112
  %214 = xor i32 %191, 96
  %215 = xor i32 %197, 3136
  %216 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %210
  %217 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %197
  %218 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 1024
  %219 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 1536
  %220 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %211
  %221 = getelementptr inbounds nuw i8, ptr addrspace(3) %220, i32 512
  %222 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %212
  %223 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 2048
  %224 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 2560
  %225 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %213
  %226 = getelementptr inbounds nuw i8, ptr addrspace(3) %225, i32 512
  %227 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %214
  %228 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 3072
  %229 = getelementptr inbounds nuw i8, ptr addrspace(3) %217, i32 3584
  %230 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %215
  %231 = getelementptr inbounds nuw i8, ptr addrspace(3) %230, i32 512
  %232 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %191
  %233 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %197
  %234 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %200
  %235 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %198
  %236 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %199
  br label %237, !dbg !21

237:                                              ; preds = %.lr.ph, %237
  %238 = phi i32 [ %202, %.lr.ph ], [ %409, %237 ]
  %239 = phi i32 [ %204, %.lr.ph ], [ %408, %237 ]
  %240 = phi i32 [ %206, %.lr.ph ], [ %407, %237 ]
  %241 = phi i32 [ %208, %.lr.ph ], [ %406, %237 ]
  %.pn = phi { i32, i32, i32, i32 } [ %193, %.lr.ph ], [ %405, %237 ]
  %242 = phi float [ 0.000000e+00, %.lr.ph ], [ %411, %237 ]
  %243 = phi float [ 0.000000e+00, %.lr.ph ], [ %412, %237 ]
  %244 = phi float [ 0.000000e+00, %.lr.ph ], [ %413, %237 ]
  %245 = phi float [ 0.000000e+00, %.lr.ph ], [ %414, %237 ]
  %246 = phi float [ 0.000000e+00, %.lr.ph ], [ %416, %237 ]
  %247 = phi float [ 0.000000e+00, %.lr.ph ], [ %417, %237 ]
  %248 = phi float [ 0.000000e+00, %.lr.ph ], [ %418, %237 ]
  %249 = phi float [ 0.000000e+00, %.lr.ph ], [ %419, %237 ]
  %250 = phi i32 [ 0, %.lr.ph ], [ %313, %237 ]
  %251 = extractvalue { i32, i32, i32, i32 } %.pn, 3, !dbg !21
  %252 = extractvalue { i32, i32, i32, i32 } %.pn, 2, !dbg !21
  %253 = extractvalue { i32, i32, i32, i32 } %.pn, 1, !dbg !21
  %254 = extractvalue { i32, i32, i32, i32 } %.pn, 0, !dbg !21
  %255 = icmp slt i32 %250, %209, !dbg !21
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !26
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !26
  %256 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %216), !dbg !26
  %257 = extractvalue { i32, i32, i32, i32 } %256, 0, !dbg !26
  %258 = extractvalue { i32, i32, i32, i32 } %256, 1, !dbg !26
  %259 = extractvalue { i32, i32, i32, i32 } %256, 2, !dbg !26
  %260 = extractvalue { i32, i32, i32, i32 } %256, 3, !dbg !26
  %261 = load i32, ptr addrspace(3) %218, align 4, !dbg !29
  %262 = load i32, ptr addrspace(3) %219, align 4, !dbg !29
  %263 = load i32, ptr addrspace(3) %220, align 4, !dbg !29
  %264 = load i32, ptr addrspace(3) %221, align 4, !dbg !29
  %265 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %242, float %243, float %244, float %245, i32 %254, i32 %253, i32 %252, i32 %251, i32 %241, i32 %240) #2, !dbg !30
  %266 = extractvalue { float, float, float, float } %265, 0, !dbg !30
  %267 = extractvalue { float, float, float, float } %265, 1, !dbg !30
  %268 = extractvalue { float, float, float, float } %265, 2, !dbg !30
  %269 = extractvalue { float, float, float, float } %265, 3, !dbg !30
  %270 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %246, float %247, float %248, float %249, i32 %254, i32 %253, i32 %252, i32 %251, i32 %239, i32 %238) #2, !dbg !30
  %271 = extractvalue { float, float, float, float } %270, 0, !dbg !30
  %272 = extractvalue { float, float, float, float } %270, 1, !dbg !30
  %273 = extractvalue { float, float, float, float } %270, 2, !dbg !30
  %274 = extractvalue { float, float, float, float } %270, 3, !dbg !30
  %275 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %222), !dbg !26
  %276 = extractvalue { i32, i32, i32, i32 } %275, 0, !dbg !26
  %277 = extractvalue { i32, i32, i32, i32 } %275, 1, !dbg !26
  %278 = extractvalue { i32, i32, i32, i32 } %275, 2, !dbg !26
  %279 = extractvalue { i32, i32, i32, i32 } %275, 3, !dbg !26
  %280 = load i32, ptr addrspace(3) %223, align 4, !dbg !29
  %281 = load i32, ptr addrspace(3) %224, align 4, !dbg !29
  %282 = load i32, ptr addrspace(3) %225, align 4, !dbg !29
  %283 = load i32, ptr addrspace(3) %226, align 4, !dbg !29
  %284 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %266, float %267, float %268, float %269, i32 %257, i32 %258, i32 %259, i32 %260, i32 %261, i32 %262) #2, !dbg !30
  %285 = extractvalue { float, float, float, float } %284, 0, !dbg !30
  %286 = extractvalue { float, float, float, float } %284, 1, !dbg !30
  %287 = extractvalue { float, float, float, float } %284, 2, !dbg !30
  %288 = extractvalue { float, float, float, float } %284, 3, !dbg !30
  %289 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %271, float %272, float %273, float %274, i32 %257, i32 %258, i32 %259, i32 %260, i32 %263, i32 %264) #2, !dbg !30
  %290 = extractvalue { float, float, float, float } %289, 0, !dbg !30
  %291 = extractvalue { float, float, float, float } %289, 1, !dbg !30
  %292 = extractvalue { float, float, float, float } %289, 2, !dbg !30
  %293 = extractvalue { float, float, float, float } %289, 3, !dbg !30
  %294 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %227), !dbg !26
  %295 = extractvalue { i32, i32, i32, i32 } %294, 0, !dbg !26
  %296 = extractvalue { i32, i32, i32, i32 } %294, 1, !dbg !26
  %297 = extractvalue { i32, i32, i32, i32 } %294, 2, !dbg !26
  %298 = extractvalue { i32, i32, i32, i32 } %294, 3, !dbg !26
  %299 = load i32, ptr addrspace(3) %228, align 4, !dbg !29
  %300 = load i32, ptr addrspace(3) %229, align 4, !dbg !29
  %301 = load i32, ptr addrspace(3) %230, align 4, !dbg !29
  %302 = load i32, ptr addrspace(3) %231, align 4, !dbg !29
  %303 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %285, float %286, float %287, float %288, i32 %276, i32 %277, i32 %278, i32 %279, i32 %280, i32 %281) #2, !dbg !30
  %304 = extractvalue { float, float, float, float } %303, 0, !dbg !30
  %305 = extractvalue { float, float, float, float } %303, 1, !dbg !30
  %306 = extractvalue { float, float, float, float } %303, 2, !dbg !30
  %307 = extractvalue { float, float, float, float } %303, 3, !dbg !30
  %308 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %290, float %291, float %292, float %293, i32 %276, i32 %277, i32 %278, i32 %279, i32 %282, i32 %283) #2, !dbg !30
  %309 = extractvalue { float, float, float, float } %308, 0, !dbg !30
  %310 = extractvalue { float, float, float, float } %308, 1, !dbg !30
  %311 = extractvalue { float, float, float, float } %308, 2, !dbg !30
  %312 = extractvalue { float, float, float, float } %308, 3, !dbg !30
  %313 = add i32 %250, 32, !dbg !21
  %314 = or disjoint i32 %313, %25, !dbg !22
  %315 = icmp slt i32 %314, %5, !dbg !22
  %316 = and i1 %36, %315, !dbg !23
  %317 = and i1 %37, %315, !dbg !23
  %318 = and i1 %38, %315, !dbg !23
  %319 = and i1 %39, %315, !dbg !23
  %320 = and i1 %40, %315, !dbg !23
  %321 = and i1 %41, %315, !dbg !23
  %322 = and i1 %42, %315, !dbg !23
  %323 = and i1 %43, %315, !dbg !23
  %324 = or disjoint i32 %313, %17, !dbg !24
  %325 = or disjoint i32 %313, %18, !dbg !24
  %326 = or disjoint i32 %313, %19, !dbg !24
  %327 = or disjoint i32 %313, %20, !dbg !24
  %328 = or disjoint i32 %313, %21, !dbg !24
  %329 = or disjoint i32 %313, %22, !dbg !24
  %330 = or disjoint i32 %313, %23, !dbg !24
  %331 = or disjoint i32 %313, %24, !dbg !24
  %332 = icmp slt i32 %324, %5, !dbg !24
  %333 = icmp slt i32 %325, %5, !dbg !24
  %334 = icmp slt i32 %326, %5, !dbg !24
  %335 = icmp slt i32 %327, %5, !dbg !24
  %336 = icmp slt i32 %328, %5, !dbg !24
  %337 = icmp slt i32 %329, %5, !dbg !24
  %338 = icmp slt i32 %330, %5, !dbg !24
  %339 = icmp slt i32 %331, %5, !dbg !24
  %340 = and i1 %44, %332, !dbg !25
  %341 = and i1 %44, %333, !dbg !25
  %342 = and i1 %44, %334, !dbg !25
  %343 = and i1 %44, %335, !dbg !25
  %344 = and i1 %44, %336, !dbg !25
  %345 = and i1 %44, %337, !dbg !25
  %346 = and i1 %44, %338, !dbg !25
  %347 = and i1 %44, %339, !dbg !25
  %348 = sext i32 %314 to i64, !dbg !20
  %349 = getelementptr [4 x i8], ptr addrspace(1) %54, i64 %348, !dbg !20
  %350 = getelementptr [4 x i8], ptr addrspace(1) %56, i64 %348, !dbg !20
  %351 = getelementptr [4 x i8], ptr addrspace(1) %58, i64 %348, !dbg !20
  %352 = getelementptr [4 x i8], ptr addrspace(1) %60, i64 %348, !dbg !20
  %353 = getelementptr [4 x i8], ptr addrspace(1) %62, i64 %348, !dbg !20
  %354 = getelementptr [4 x i8], ptr addrspace(1) %64, i64 %348, !dbg !20
  %355 = getelementptr [4 x i8], ptr addrspace(1) %66, i64 %348, !dbg !20
  %356 = getelementptr [4 x i8], ptr addrspace(1) %68, i64 %348, !dbg !20
  %357 = and i1 %255, %316, !dbg !21
  %358 = and i1 %255, %317, !dbg !21
  %359 = and i1 %255, %318, !dbg !21
  %360 = and i1 %255, %319, !dbg !21
  %361 = and i1 %255, %320, !dbg !21
  %362 = and i1 %255, %321, !dbg !21
  %363 = and i1 %255, %322, !dbg !21
  %364 = and i1 %255, %323, !dbg !21
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !26
  %365 = select i1 %357, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) %108, ptr addrspace(1) %349, i32 %365) #2, !dbg !26
  %366 = select i1 %359, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %110, ptr addrspace(1) %351, i32 %366) #2, !dbg !26
  %367 = select i1 %361, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %112, ptr addrspace(1) %353, i32 %367) #2, !dbg !26
  %368 = select i1 %363, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %114, ptr addrspace(1) %355, i32 %368) #2, !dbg !26
  %369 = select i1 %358, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %117, ptr addrspace(1) %350, i32 %369) #2, !dbg !26
  %370 = select i1 %360, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %119, ptr addrspace(1) %352, i32 %370) #2, !dbg !26
  %371 = select i1 %362, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %121, ptr addrspace(1) %354, i32 %371) #2, !dbg !26
  %372 = select i1 %364, i32 4, i32 0, !dbg !26
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %123, ptr addrspace(1) %356, i32 %372) #2, !dbg !26
  tail call void @llvm.nvvm.cp.async.commit.group(), !dbg !26
  %373 = mul i32 %324, %7, !dbg !27
  %374 = mul i32 %325, %7, !dbg !27
  %375 = mul i32 %326, %7, !dbg !27
  %376 = mul i32 %327, %7, !dbg !27
  %377 = mul i32 %328, %7, !dbg !27
  %378 = mul i32 %329, %7, !dbg !27
  %379 = mul i32 %330, %7, !dbg !27
  %380 = mul i32 %331, %7, !dbg !27
  %381 = sext i32 %373 to i64, !dbg !28
  %382 = sext i32 %374 to i64, !dbg !28
  %383 = sext i32 %375 to i64, !dbg !28
  %384 = sext i32 %376 to i64, !dbg !28
  %385 = sext i32 %377 to i64, !dbg !28
  %386 = sext i32 %378 to i64, !dbg !28
  %387 = sext i32 %379 to i64, !dbg !28
  %388 = sext i32 %380 to i64, !dbg !28
  %gep = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %381, !dbg !28
  %gep35 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %382, !dbg !28
  %gep37 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %383, !dbg !28
  %gep39 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %384, !dbg !28
  %gep41 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %385, !dbg !28
  %gep43 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %386, !dbg !28
  %gep45 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %387, !dbg !28
  %gep47 = getelementptr [4 x i8], ptr addrspace(1) %invariant.gep, i64 %388, !dbg !28
  %389 = and i1 %255, %340, !dbg !21
  %390 = and i1 %255, %341, !dbg !21
  %391 = and i1 %255, %342, !dbg !21
  %392 = and i1 %255, %343, !dbg !21
  %393 = and i1 %255, %344, !dbg !21
  %394 = and i1 %255, %345, !dbg !21
  %395 = and i1 %255, %346, !dbg !21
  %396 = and i1 %255, %347, !dbg !21
  %397 = select i1 %389, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) %166, ptr addrspace(1) %gep, i32 %397) #2, !dbg !29
  %398 = select i1 %390, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %168, ptr addrspace(1) %gep35, i32 %398) #2, !dbg !29
  %399 = select i1 %391, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %170, ptr addrspace(1) %gep37, i32 %399) #2, !dbg !29
  %400 = select i1 %392, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %172, ptr addrspace(1) %gep39, i32 %400) #2, !dbg !29
  %401 = select i1 %393, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %174, ptr addrspace(1) %gep41, i32 %401) #2, !dbg !29
  %402 = select i1 %394, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %176, ptr addrspace(1) %gep43, i32 %402) #2, !dbg !29
  %403 = select i1 %395, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %178, ptr addrspace(1) %gep45, i32 %403) #2, !dbg !29
  %404 = select i1 %396, i32 4, i32 0, !dbg !29
  tail call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) nonnull %180, ptr addrspace(1) %gep47, i32 %404) #2, !dbg !29
  tail call void @llvm.nvvm.cp.async.commit.group(), !dbg !29
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !26
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !26
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !26
  %405 = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %232), !dbg !26
  %406 = load i32, ptr addrspace(3) %233, align 4, !dbg !29
  %407 = load i32, ptr addrspace(3) %234, align 4, !dbg !29
  %408 = load i32, ptr addrspace(3) %235, align 4, !dbg !29
  %409 = load i32, ptr addrspace(3) %236, align 4, !dbg !29
  %410 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %304, float %305, float %306, float %307, i32 %295, i32 %296, i32 %297, i32 %298, i32 %299, i32 %300) #2, !dbg !30
  %411 = extractvalue { float, float, float, float } %410, 0, !dbg !30
  %412 = extractvalue { float, float, float, float } %410, 1, !dbg !30
  %413 = extractvalue { float, float, float, float } %410, 2, !dbg !30
  %414 = extractvalue { float, float, float, float } %410, 3, !dbg !30
  %415 = tail call { float, float, float, float } asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"(float %309, float %310, float %311, float %312, i32 %295, i32 %296, i32 %297, i32 %298, i32 %301, i32 %302) #2, !dbg !30
  %416 = extractvalue { float, float, float, float } %415, 0, !dbg !30
  %417 = extractvalue { float, float, float, float } %415, 1, !dbg !30
  %418 = extractvalue { float, float, float, float } %415, 2, !dbg !30
  %419 = extractvalue { float, float, float, float } %415, 3, !dbg !30
  %420 = icmp slt i32 %313, %5, !dbg !21
  br i1 %420, label %237, label %._crit_edge, !dbg !21

._crit_edge:                                      ; preds = %237, %11
  %421 = phi float [ 0.000000e+00, %11 ], [ %411, %237 ]
  %422 = phi float [ 0.000000e+00, %11 ], [ %412, %237 ]
  %423 = phi float [ 0.000000e+00, %11 ], [ %413, %237 ]
  %424 = phi float [ 0.000000e+00, %11 ], [ %414, %237 ]
  %425 = phi float [ 0.000000e+00, %11 ], [ %416, %237 ]
  %426 = phi float [ 0.000000e+00, %11 ], [ %417, %237 ]
  %427 = phi float [ 0.000000e+00, %11 ], [ %418, %237 ]
  %428 = phi float [ 0.000000e+00, %11 ], [ %419, %237 ]
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0), !dbg !21
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !21
  %429 = and i1 %36, %44, !dbg !31
  %430 = and i1 %37, %44, !dbg !31
  %431 = and i1 %38, %44, !dbg !31
  %432 = and i1 %39, %44, !dbg !31
  %433 = and i1 %40, %44, !dbg !31
  %434 = and i1 %41, %44, !dbg !31
  %435 = and i1 %42, %44, !dbg !31
  %436 = and i1 %43, %44, !dbg !31
  %437 = mul i32 %8, %26, !dbg !32
  %438 = mul i32 %8, %27, !dbg !32
  %439 = mul i32 %8, %28, !dbg !32
  %440 = mul i32 %8, %29, !dbg !32
  %441 = mul i32 %8, %30, !dbg !32
  %442 = mul i32 %8, %31, !dbg !32
  %443 = mul i32 %8, %32, !dbg !32
  %444 = mul i32 %8, %33, !dbg !32
  %445 = sext i32 %437 to i64, !dbg !33
  %446 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %445, !dbg !33
  %447 = sext i32 %438 to i64, !dbg !33
  %448 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %447, !dbg !33
  %449 = sext i32 %439 to i64, !dbg !33
  %450 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %449, !dbg !33
  %451 = sext i32 %440 to i64, !dbg !33
  %452 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %451, !dbg !33
  %453 = sext i32 %441 to i64, !dbg !33
  %454 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %453, !dbg !33
  %455 = sext i32 %442 to i64, !dbg !33
  %456 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %455, !dbg !33
  %457 = sext i32 %443 to i64, !dbg !33
  %458 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %457, !dbg !33
  %459 = sext i32 %444 to i64, !dbg !33
  %460 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %459, !dbg !33
  %461 = getelementptr [4 x i8], ptr addrspace(1) %446, i64 %149, !dbg !33
  %462 = getelementptr [4 x i8], ptr addrspace(1) %448, i64 %149, !dbg !33
  %463 = getelementptr [4 x i8], ptr addrspace(1) %450, i64 %149, !dbg !33
  %464 = getelementptr [4 x i8], ptr addrspace(1) %452, i64 %149, !dbg !33
  %465 = getelementptr [4 x i8], ptr addrspace(1) %454, i64 %149, !dbg !33
  %466 = getelementptr [4 x i8], ptr addrspace(1) %456, i64 %149, !dbg !33
  %467 = getelementptr [4 x i8], ptr addrspace(1) %458, i64 %149, !dbg !33
  %468 = getelementptr [4 x i8], ptr addrspace(1) %460, i64 %149, !dbg !33
  %469 = shl nuw nsw i32 %15, 8, !dbg !34
  %470 = and i32 %469, 3072, !dbg !34
  %471 = shl nuw nsw i32 %194, 4, !dbg !34
  %472 = shl nuw nsw i32 %15, 3, !dbg !34
  %473 = and i32 %472, 192, !dbg !34
  %474 = shl nuw nsw i32 %15, 1, !dbg !34
  %475 = and i32 %474, 72, !dbg !34
  %476 = shl nuw nsw i32 %187, 2, !dbg !34
  %477 = or disjoint i32 %470, %471, !dbg !34
  %478 = xor i32 %473, %475, !dbg !34
  %479 = or disjoint i32 %477, %478, !dbg !34
  %480 = or disjoint i32 %479, %476, !dbg !34
  %481 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %480, !dbg !34
  %482 = insertelement <2 x float> poison, float %421, i64 0, !dbg !34
  %483 = insertelement <2 x float> %482, float %423, i64 1, !dbg !34
  store <2 x float> %483, ptr addrspace(3) %481, align 8, !dbg !34
  %484 = getelementptr inbounds nuw i8, ptr addrspace(3) %481, i32 512, !dbg !34
  %485 = insertelement <2 x float> poison, float %425, i64 0, !dbg !34
  %486 = insertelement <2 x float> %485, float %427, i64 1, !dbg !34
  store <2 x float> %486, ptr addrspace(3) %484, align 8, !dbg !34
  %487 = xor i32 %480, 8, !dbg !34
  %488 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %487, !dbg !34
  %489 = insertelement <2 x float> poison, float %422, i64 0, !dbg !34
  %490 = insertelement <2 x float> %489, float %424, i64 1, !dbg !34
  store <2 x float> %490, ptr addrspace(3) %488, align 8, !dbg !34
  %491 = getelementptr inbounds nuw i8, ptr addrspace(3) %488, i32 512, !dbg !34
  %492 = insertelement <2 x float> poison, float %426, i64 0, !dbg !34
  %493 = insertelement <2 x float> %492, float %428, i64 1, !dbg !34
  store <2 x float> %493, ptr addrspace(3) %491, align 8, !dbg !34
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !34
  %494 = shl nuw nsw i32 %182, 3, !dbg !34
  %495 = shl nuw nsw i32 %186, 5, !dbg !34
  %496 = and i32 %15, 32, !dbg !34
  %497 = icmp eq i32 %496, 0, !dbg !34
  %498 = select i1 %497, i32 0, i32 1032, !dbg !34
  %499 = icmp eq i32 %187, 0, !dbg !34
  %500 = select i1 %499, i32 0, i32 2112, !dbg !34
  %501 = xor i32 %498, %494, !dbg !34
  %502 = xor i32 %501, %500, !dbg !34
  %503 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %495, !dbg !34
  %504 = getelementptr inbounds nuw i8, ptr addrspace(3) %503, i32 %502, !dbg !34
  %505 = load <2 x i32>, ptr addrspace(3) %504, align 8, !dbg !34
  %506 = getelementptr inbounds nuw i8, ptr addrspace(3) %504, i32 128, !dbg !34
  %507 = load <2 x i32>, ptr addrspace(3) %506, align 8, !dbg !34
  %508 = getelementptr inbounds nuw i8, ptr addrspace(3) %504, i32 256, !dbg !34
  %509 = load <2 x i32>, ptr addrspace(3) %508, align 8, !dbg !34
  %510 = getelementptr inbounds nuw i8, ptr addrspace(3) %504, i32 384, !dbg !34
  %511 = load <2 x i32>, ptr addrspace(3) %510, align 8, !dbg !34
  %.extract = extractelement <2 x i32> %505, i64 0, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract, ptr addrspace(1) %461, i1 %429) #2, !dbg !34
  %.extract24 = extractelement <2 x i32> %507, i64 0, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract24, ptr addrspace(1) %462, i1 %430) #2, !dbg !34
  %.extract25 = extractelement <2 x i32> %505, i64 1, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract25, ptr addrspace(1) %463, i1 %431) #2, !dbg !34
  %.extract26 = extractelement <2 x i32> %507, i64 1, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract26, ptr addrspace(1) %464, i1 %432) #2, !dbg !34
  %.extract27 = extractelement <2 x i32> %509, i64 0, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract27, ptr addrspace(1) %465, i1 %433) #2, !dbg !34
  %.extract28 = extractelement <2 x i32> %511, i64 0, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract28, ptr addrspace(1) %466, i1 %434) #2, !dbg !34
  %.extract29 = extractelement <2 x i32> %509, i64 1, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract29, ptr addrspace(1) %467, i1 %435) #2, !dbg !34
  %.extract30 = extractelement <2 x i32> %511, i64 1, !dbg !34
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract30, ptr addrspace(1) %468, i1 %436) #2, !dbg !34
  ret void, !dbg !35
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nounwind
declare void @llvm.nvvm.cp.async.commit.group() #2

; Function Attrs: nounwind
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: convergent nocallback nofree nounwind memory(argmem: read)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) readonly captures(none)) #4

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { convergent nocallback nofree nounwind memory(argmem: read) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "triton", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "triton_fixtures.py", directory: "/work/main/test/scripts")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 1}
!4 = distinct !DISubprogram(name: "matmul", linkageName: "matmul", scope: !1, file: !1, line: 45, type: !5, scopeLine: 45, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(cc: DW_CC_normal, types: !6)
!6 = !{null, !7, !7, !7, !9, !9, !9, !9, !9, !9, !10, !10}
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !8, size: 64, dwarfAddressSpace: 1)
!8 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "pointer", baseType: !11, size: 64, dwarfAddressSpace: 1)
!11 = !DIBasicType(name: "unknown_type", encoding: DW_ATE_signed)
!12 = !DILocation(line: 47, column: 13, scope: !4)
!13 = !DILocation(line: 48, column: 13, scope: !4)
!14 = !DILocation(line: 49, column: 10, scope: !4)
!15 = !DILocation(line: 49, column: 23, scope: !4)
!16 = !DILocation(line: 50, column: 10, scope: !4)
!17 = !DILocation(line: 54, column: 15, scope: !4)
!18 = !DILocation(line: 55, column: 39, scope: !4)
!19 = !DILocation(line: 56, column: 25, scope: !4)
!20 = !DILocation(line: 56, column: 21, scope: !4)
!21 = !DILocation(line: 53, column: 5, scope: !4)
!22 = !DILocation(line: 54, column: 35, scope: !4)
!23 = !DILocation(line: 54, column: 14, scope: !4)
!24 = !DILocation(line: 55, column: 15, scope: !4)
!25 = !DILocation(line: 55, column: 14, scope: !4)
!26 = !DILocation(line: 56, column: 13, scope: !4)
!27 = !DILocation(line: 57, column: 25, scope: !4)
!28 = !DILocation(line: 57, column: 21, scope: !4)
!29 = !DILocation(line: 57, column: 13, scope: !4)
!30 = !DILocation(line: 58, column: 16, scope: !4)
!31 = !DILocation(line: 60, column: 19, scope: !4)
!32 = !DILocation(line: 59, column: 18, scope: !4)
!33 = !DILocation(line: 59, column: 14, scope: !4)
!34 = !DILocation(line: 59, column: 5, scope: !4)
!35 = !DILocation(line: 45, column: 1, scope: !4)
