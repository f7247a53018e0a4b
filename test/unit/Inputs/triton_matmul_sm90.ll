; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @matmul(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3, i32 %4, i32 %5, i32 %6, i32 %7, i32 %8, ptr addrspace(1) nofree readnone captures(none) %9, ptr addrspace(1) nofree readnone captures(none) %10) local_unnamed_addr #0 !dbg !4 {
  %12 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !14
  %13 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !15
  %14 = shl i32 %12, 6, !dbg !16
  %15 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !17
  %16 = lshr i32 %15, 5, !dbg !17
  %17 = and i32 %16, 3, !dbg !17
  %18 = and i32 %15, 64, !dbg !17
  %19 = lshr exact i32 %18, 6, !dbg !17
  %20 = or disjoint i32 %19, 2, !dbg !17
  %21 = or disjoint i32 %19, 4, !dbg !17
  %22 = or disjoint i32 %19, 6, !dbg !17
  %23 = or disjoint i32 %19, 8, !dbg !17
  %24 = or disjoint i32 %19, 10, !dbg !17
  %25 = or disjoint i32 %19, 12, !dbg !17
  %26 = or disjoint i32 %19, 14, !dbg !17
  %27 = or disjoint i32 %19, 16, !dbg !17
  %28 = or disjoint i32 %19, 18, !dbg !17
  %29 = or disjoint i32 %19, 20, !dbg !17
  %30 = or disjoint i32 %19, 22, !dbg !17
  %31 = or disjoint i32 %19, 24, !dbg !17
  %32 = or disjoint i32 %19, 26, !dbg !17
  %33 = or disjoint i32 %19, 28, !dbg !17
  %34 = or disjoint i32 %19, 30, !dbg !17
  %35 = and i32 %15, 63, !dbg !17
  %36 = or disjoint i32 %17, %14, !dbg !16
  %37 = or disjoint i32 %36, 4, !dbg !16
  %38 = or disjoint i32 %36, 8, !dbg !16
  %39 = or disjoint i32 %36, 12, !dbg !16
  %40 = or disjoint i32 %36, 16, !dbg !16
  %41 = or disjoint i32 %36, 20, !dbg !16
  %42 = or disjoint i32 %36, 24, !dbg !16
  %43 = or disjoint i32 %14, %16, !dbg !17
  %44 = or i32 %43, 28, !dbg !16
  %45 = or disjoint i32 %36, 32, !dbg !16
  %46 = or disjoint i32 %36, 36, !dbg !16
  %47 = or disjoint i32 %36, 40, !dbg !16
  %48 = or disjoint i32 %36, 44, !dbg !16
  %49 = or disjoint i32 %36, 48, !dbg !16
  %50 = or disjoint i32 %36, 52, !dbg !16
  %51 = or disjoint i32 %36, 56, !dbg !16
  %52 = or i32 %43, 60, !dbg !16
  %53 = shl nuw nsw i32 %13, 6, !dbg !18
  %54 = or disjoint i32 %53, %35, !dbg !18
  %55 = icmp slt i32 %36, %3, !dbg !19
  %56 = icmp slt i32 %37, %3, !dbg !19
  %57 = icmp slt i32 %38, %3, !dbg !19
  %58 = icmp slt i32 %39, %3, !dbg !19
  %59 = icmp slt i32 %40, %3, !dbg !19
  %60 = icmp slt i32 %41, %3, !dbg !19
  %61 = icmp slt i32 %42, %3, !dbg !19
  %62 = icmp slt i32 %44, %3, !dbg !19
  %63 = icmp slt i32 %45, %3, !dbg !19
  %64 = icmp slt i32 %46, %3, !dbg !19
  %65 = icmp slt i32 %47, %3, !dbg !19
  %66 = icmp slt i32 %48, %3, !dbg !19
  %67 = icmp slt i32 %49, %3, !dbg !19
  %68 = icmp slt i32 %50, %3, !dbg !19
  %69 = icmp slt i32 %51, %3, !dbg !19
  %70 = icmp slt i32 %52, %3, !dbg !19
  %71 = and i32 %15, 31, !dbg !20
  %72 = icmp slt i32 %54, %4, !dbg !21
  %73 = mul i32 %6, %36, !dbg !22
  %74 = mul i32 %6, %37, !dbg !22
  %75 = mul i32 %6, %38, !dbg !22
  %76 = mul i32 %6, %39, !dbg !22
  %77 = mul i32 %6, %40, !dbg !22
  %78 = mul i32 %6, %41, !dbg !22
  %79 = mul i32 %6, %42, !dbg !22
  %80 = mul i32 %6, %44, !dbg !22
  %81 = mul i32 %6, %45, !dbg !22
  %82 = mul i32 %6, %46, !dbg !22
  %83 = mul i32 %6, %47, !dbg !22
  %84 = mul i32 %6, %48, !dbg !22
  %85 = mul i32 %6, %49, !dbg !22
  %86 = mul i32 %6, %50, !dbg !22
  %87 = mul i32 %6, %51, !dbg !22
  %88 = mul i32 %6, %52, !dbg !22
  %89 = sext i32 %73 to i64, !dbg !23
  %90 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %89, !dbg !23
  %91 = sext i32 %74 to i64, !dbg !23
  %92 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %91, !dbg !23
  %93 = sext i32 %75 to i64, !dbg !23
  %94 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %93, !dbg !23
  %95 = sext i32 %76 to i64, !dbg !23
  %96 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %95, !dbg !23
  %97 = sext i32 %77 to i64, !dbg !23
  %98 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %97, !dbg !23
  %99 = sext i32 %78 to i64, !dbg !23
  %100 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %99, !dbg !23
  %101 = sext i32 %79 to i64, !dbg !23
  %102 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %101, !dbg !23
  %103 = sext i32 %80 to i64, !dbg !23
  %104 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %103, !dbg !23
  %105 = sext i32 %81 to i64, !dbg !23
  %106 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %105, !dbg !23
  %107 = sext i32 %82 to i64, !dbg !23
  %108 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %107, !dbg !23
  %109 = sext i32 %83 to i64, !dbg !23
  %110 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %109, !dbg !23
  %111 = sext i32 %84 to i64, !dbg !23
  %112 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %111, !dbg !23
  %113 = sext i32 %85 to i64, !dbg !23
  %114 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %113, !dbg !23
  %115 = sext i32 %86 to i64, !dbg !23
  %116 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %115, !dbg !23
  %117 = sext i32 %87 to i64, !dbg !23
  %118 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %117, !dbg !23
  %119 = sext i32 %88 to i64, !dbg !23
  %120 = getelementptr [2 x i8], ptr addrspace(1) %0, i64 %119, !dbg !23
  %121 = icmp sgt i32 %5, 0, !dbg !24
  br i1 %121, label %.lr.ph, label %.._crit_edge_crit_edge, !dbg !24

.._crit_edge_crit_edge:                           ; preds = %11
  %.pre = zext nneg i32 %54 to i64, !dbg !25
  br label %._crit_edge, !dbg !24

.lr.ph:                                           ; preds = %11
  %122 = shl nuw nsw i32 %35, 1
  %123 = icmp eq i32 %18, 0
  %124 = select i1 %123, i32 0, i32 144
  %125 = xor i32 %124, %122
  %126 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %125
  %127 = getelementptr inbounds nuw i8, ptr addrspace(3) %126, i32 512
  %128 = or disjoint i32 %125, 1024
  %129 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %128
  %130 = getelementptr inbounds nuw i8, ptr addrspace(3) %126, i32 1536
  %131 = or disjoint i32 %125, 2048
  %132 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %131
  %133 = getelementptr inbounds nuw i8, ptr addrspace(3) %126, i32 2560
  %134 = or disjoint i32 %125, 3072
  %135 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %134
  %136 = getelementptr inbounds nuw i8, ptr addrspace(3) %126, i32 3584
  %137 = xor i32 %125, 288
  %138 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %137
  %139 = getelementptr inbounds nuw i8, ptr addrspace(3) %138, i32 512
  %140 = or disjoint i32 %137, 1024
  %141 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %140
  %142 = getelementptr inbounds nuw i8, ptr addrspace(3) %138, i32 1536
  %143 = or disjoint i32 %137, 2048
  %144 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %143
  %145 = getelementptr inbounds nuw i8, ptr addrspace(3) %138, i32 2560
  %146 = or disjoint i32 %137, 3072
  %147 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %146
  %148 = getelementptr inbounds nuw i8, ptr addrspace(3) %138, i32 3584
  %149 = zext nneg i32 %54 to i64
  %invariant.gep = getelementptr [2 x i8], ptr addrspace(1) %1, i64 %149, !dbg !24
  %150 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %125
  %151 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %128
  %152 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %131
  %153 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %134
  %154 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %137
  %155 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %140
  %156 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %143
  %157 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %146
  %158 = xor i32 %125, 576
  %159 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %158
  %160 = getelementptr inbounds nuw i8, ptr addrspace(3) %159, i32 1024
  %161 = getelementptr inbounds nuw i8, ptr addrspace(3) %159, i32 2048
  %162 = getelementptr inbounds nuw i8, ptr addrspace(3) %159, i32 3072
  %163 = xor i32 %125, 864
  %164 = getelementptr inbounds nuw i8, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 %163
  %165 = getelementptr inbounds nuw i8, ptr addrspace(3) %164, i32 1024
  %166 = getelementptr inbounds nuw i8, ptr addrspace(3) %164, i32 2048
  %167 = getelementptr inbounds nuw i8, ptr addrspace(3) %164, i32 3072
  %168 = lshr exact i32 ptrtoint (ptr addrspace(3) @global_smem to i32), 4
  %169 = and i32 %168, 32767
  %170 = lshr exact i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096) to i32), 4
  %171 = and i32 %170, 32767
  %172 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %169, i64 0
  %173 = bitcast <2 x i32> %172 to i64
  %174 = insertelement <2 x i32> <i32 poison, i32 1073741888>, i32 %171, i64 0
  %175 = bitcast <2 x i32> %174 to i64
  %176 = add nuw nsw i32 %169, 2
  %177 = insertelement <2 x i32> <i32 poison, i32 -2147483616>, i32 %176, i64 0
  %178 = bitcast <2 x i32> %177 to i64
  %179 = add nuw nsw i32 %171, 128
  %180 = insertelement <2 x i32> <i32 poison, i32 1073741888>, i32 %179, i64 0
  %181 = bitcast <2 x i32> %180 to i64
  br label %182, !dbg !24

182:                                              ; preds = %.lr.ph, %182
  %183 = phi float [ 0.000000e+00, %.lr.ph ], [ %462, %182 ]
  %184 = phi float [ 0.000000e+00, %.lr.ph ], [ %463, %182 ]
  %185 = phi float [ 0.000000e+00, %.lr.ph ], [ %464, %182 ]
  %186 = phi float [ 0.000000e+00, %.lr.ph ], [ %465, %182 ]
  %187 = phi float [ 0.000000e+00, %.lr.ph ], [ %466, %182 ]
  %188 = phi float [ 0.000000e+00, %.lr.ph ], [ %467, %182 ]
  %189 = phi float [ 0.000000e+00, %.lr.ph ], [ %468, %182 ]
  %190 = phi float [ 0.000000e+00, %.lr.ph ], [ %469, %182 ]
  %191 = phi float [ 0.000000e+00, %.lr.ph ], [ %470, %182 ]
  %192 = phi float [ 0.000000e+00, %.lr.ph ], [ %471, %182 ]
  %193 = phi float [ 0.000000e+00, %.lr.ph ], [ %472, %182 ]
  %194 = phi float [ 0.000000e+00, %.lr.ph ], [ %473, %182 ]
  %195 = phi float [ 0.000000e+00, %.lr.ph ], [ %474, %182 ]
  %196 = phi float [ 0.000000e+00, %.lr.ph ], [ %475, %182 ]
  %197 = phi float [ 0.000000e+00, %.lr.ph ], [ %476, %182 ]
  %198 = phi float [ 0.000000e+00, %.lr.ph ], [ %477, %182 ]
  %199 = phi float [ 0.000000e+00, %.lr.ph ], [ %478, %182 ]
  %200 = phi float [ 0.000000e+00, %.lr.ph ], [ %479, %182 ]
  %201 = phi float [ 0.000000e+00, %.lr.ph ], [ %480, %182 ]
  %202 = phi float [ 0.000000e+00, %.lr.ph ], [ %481, %182 ]
  %203 = phi float [ 0.000000e+00, %.lr.ph ], [ %482, %182 ]
  %204 = phi float [ 0.000000e+00, %.lr.ph ], [ %483, %182 ]
  %205 = phi float [ 0.000000e+00, %.lr.ph ], [ %484, %182 ]
  %206 = phi float [ 0.000000e+00, %.lr.ph ], [ %485, %182 ]
  %207 = phi float [ 0.000000e+00, %.lr.ph ], [ %486, %182 ]
  %208 = phi float [ 0.000000e+00, %.lr.ph ], [ %487, %182 ]
  %209 = phi float [ 0.000000e+00, %.lr.ph ], [ %488, %182 ]
  %210 = phi float [ 0.000000e+00, %.lr.ph ], [ %489, %182 ]
  %211 = phi float [ 0.000000e+00, %.lr.ph ], [ %490, %182 ]
  %212 = phi float [ 0.000000e+00, %.lr.ph ], [ %491, %182 ]
  %213 = phi float [ 0.000000e+00, %.lr.ph ], [ %492, %182 ]
  %214 = phi float [ 0.000000e+00, %.lr.ph ], [ %493, %182 ]
  %215 = phi i32 [ 0, %.lr.ph ], [ %494, %182 ]
  %216 = or disjoint i32 %215, %71, !dbg !26
  %217 = icmp slt i32 %216, %5, !dbg !26
  %218 = and i1 %55, %217, !dbg !27
  %219 = and i1 %56, %217, !dbg !27
  %220 = and i1 %57, %217, !dbg !27
  %221 = and i1 %58, %217, !dbg !27
  %222 = and i1 %59, %217, !dbg !27
  %223 = and i1 %60, %217, !dbg !27
  %224 = and i1 %61, %217, !dbg !27
  %225 = and i1 %62, %217, !dbg !27
  %226 = and i1 %63, %217, !dbg !27
  %227 = and i1 %64, %217, !dbg !27
  %228 = and i1 %65, %217, !dbg !27
  %229 = and i1 %66, %217, !dbg !27
  %230 = and i1 %67, %217, !dbg !27
  %231 = and i1 %68, %217, !dbg !27
  %232 = and i1 %69, %217, !dbg !27
  %233 = and i1 %70, %217, !dbg !27
  %234 = or disjoint i32 %215, %19, !dbg !28
  %235 = or disjoint i32 %215, %20, !dbg !28
  %236 = or disjoint i32 %215, %21, !dbg !28
  %237 = or disjoint i32 %215, %22, !dbg !28
  %238 = or disjoint i32 %215, %23, !dbg !28
  %239 = or disjoint i32 %215, %24, !dbg !28
  %240 = or disjoint i32 %215, %25, !dbg !28
  %241 = or disjoint i32 %215, %26, !dbg !28
  %242 = or disjoint i32 %215, %27, !dbg !28
  %243 = or disjoint i32 %215, %28, !dbg !28
  %244 = or disjoint i32 %215, %29, !dbg !28
  %245 = or disjoint i32 %215, %30, !dbg !28
  %246 = or disjoint i32 %215, %31, !dbg !28
  %247 = or disjoint i32 %215, %32, !dbg !28
  %248 = or disjoint i32 %215, %33, !dbg !28
  %249 = or disjoint i32 %215, %34, !dbg !28
  %250 = icmp slt i32 %234, %5, !dbg !28
  %251 = icmp slt i32 %235, %5, !dbg !28
  %252 = icmp slt i32 %236, %5, !dbg !28
  %253 = icmp slt i32 %237, %5, !dbg !28
  %254 = icmp slt i32 %238, %5, !dbg !28
  %255 = icmp slt i32 %239, %5, !dbg !28
  %256 = icmp slt i32 %240, %5, !dbg !28
  %257 = icmp slt i32 %241, %5, !dbg !28
  %258 = icmp slt i32 %242, %5, !dbg !28
  %259 = icmp slt i32 %243, %5, !dbg !28
  %260 = icmp slt i32 %244, %5, !dbg !28
  %261 = icmp slt i32 %245, %5, !dbg !28
  %262 = icmp slt i32 %246, %5, !dbg !28
  %263 = icmp slt i32 %247, %5, !dbg !28
  %264 = icmp slt i32 %248, %5, !dbg !28
  %265 = icmp slt i32 %249, %5, !dbg !28
  %266 = and i1 %72, %250, !dbg !29
  %267 = and i1 %72, %251, !dbg !29
  %268 = and i1 %72, %252, !dbg !29
  %269 = and i1 %72, %253, !dbg !29
  %270 = and i1 %72, %254, !dbg !29
  %271 = and i1 %72, %255, !dbg !29
  %272 = and i1 %72, %256, !dbg !29
  %273 = and i1 %72, %257, !dbg !29
  %274 = and i1 %72, %258, !dbg !29
  %275 = and i1 %72, %259, !dbg !29
  %276 = and i1 %72, %260, !dbg !29
  %277 = and i1 %72, %261, !dbg !29
  %278 = and i1 %72, %262, !dbg !29
  %279 = and i1 %72, %263, !dbg !29
  %280 = and i1 %72, %264, !dbg !29
  %281 = and i1 %72, %265, !dbg !29
  %282 = sext i32 %216 to i64, !dbg !23
  %283 = getelementptr [2 x i8], ptr addrspace(1) %90, i64 %282, !dbg !23
  %284 = getelementptr [2 x i8], ptr addrspace(1) %92, i64 %282, !dbg !23
  %285 = getelementptr [2 x i8], ptr addrspace(1) %94, i64 %282, !dbg !23
  %286 = getelementptr [2 x i8], ptr addrspace(1) %96, i64 %282, !dbg !23
  %287 = getelementptr [2 x i8], ptr addrspace(1) %98, i64 %282, !dbg !23
  %288 = getelementptr [2 x i8], ptr addrspace(1) %100, i64 %282, !dbg !23
  %289 = getelementptr [2 x i8], ptr addrspace(1) %102, i64 %282, !dbg !23
  %290 = getelementptr [2 x i8], ptr addrspace(1) %104, i64 %282, !dbg !23
  %291 = getelementptr [2 x i8], ptr addrspace(1) %106, i64 %282, !dbg !23
  %292 = getelementptr [2 x i8], ptr addrspace(1) %108, i64 %282, !dbg !23
  %293 = getelementptr [2 x i8], ptr addrspace(1) %110, i64 %282, !dbg !23
  %294 = getelementptr [2 x i8], ptr addrspace(1) %112, i64 %282, !dbg !23
  %295 = getelementptr [2 x i8], ptr addrspace(1) %114, i64 %282, !dbg !23
  %296 = getelementptr [2 x i8], ptr addrspace(1) %116, i64 %282, !dbg !23
  %297 = getelementptr [2 x i8], ptr addrspace(1) %118, i64 %282, !dbg !23
  %298 = getelementptr [2 x i8], ptr addrspace(1) %120, i64 %282, !dbg !23
  %299 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %283, i1 %218) #6, !dbg !30
  %300 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %284, i1 %219) #6, !dbg !30
  %301 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %285, i1 %220) #6, !dbg !30
  %302 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %286, i1 %221) #6, !dbg !30
  %303 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %287, i1 %222) #6, !dbg !30
  %304 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %288, i1 %223) #6, !dbg !30
  %305 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %289, i1 %224) #6, !dbg !30
  %306 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %290, i1 %225) #6, !dbg !30
  %307 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %291, i1 %226) #6, !dbg !30
  %308 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %292, i1 %227) #6, !dbg !30
  %309 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %293, i1 %228) #6, !dbg !30
  %310 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %294, i1 %229) #6, !dbg !30
  %311 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %295, i1 %230) #6, !dbg !30
  %312 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %296, i1 %231) #6, !dbg !30
  %313 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %297, i1 %232) #6, !dbg !30
  %314 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %298, i1 %233) #6, !dbg !30
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !30
  %315 = insertelement <1 x i16> poison, i16 %299, i64 0, !dbg !30
  store <1 x i16> %315, ptr addrspace(3) %126, align 2, !dbg !30
  %316 = insertelement <1 x i16> poison, i16 %301, i64 0, !dbg !30
  store <1 x i16> %316, ptr addrspace(3) %127, align 2, !dbg !30
  %317 = insertelement <1 x i16> poison, i16 %303, i64 0, !dbg !30
  store <1 x i16> %317, ptr addrspace(3) %129, align 2, !dbg !30
  %318 = insertelement <1 x i16> poison, i16 %305, i64 0, !dbg !30
  store <1 x i16> %318, ptr addrspace(3) %130, align 2, !dbg !30
  %319 = insertelement <1 x i16> poison, i16 %307, i64 0, !dbg !30
  store <1 x i16> %319, ptr addrspace(3) %132, align 2, !dbg !30
  %320 = insertelement <1 x i16> poison, i16 %309, i64 0, !dbg !30
  store <1 x i16> %320, ptr addrspace(3) %133, align 2, !dbg !30
  %321 = insertelement <1 x i16> poison, i16 %311, i64 0, !dbg !30
  store <1 x i16> %321, ptr addrspace(3) %135, align 2, !dbg !30
  %322 = insertelement <1 x i16> poison, i16 %313, i64 0, !dbg !30
  store <1 x i16> %322, ptr addrspace(3) %136, align 2, !dbg !30
  %323 = insertelement <1 x i16> poison, i16 %300, i64 0, !dbg !30
  store <1 x i16> %323, ptr addrspace(3) %138, align 2, !dbg !30
  %324 = insertelement <1 x i16> poison, i16 %302, i64 0, !dbg !30
  store <1 x i16> %324, ptr addrspace(3) %139, align 2, !dbg !30
  %325 = insertelement <1 x i16> poison, i16 %304, i64 0, !dbg !30
  store <1 x i16> %325, ptr addrspace(3) %141, align 2, !dbg !30
  %326 = insertelement <1 x i16> poison, i16 %306, i64 0, !dbg !30
  store <1 x i16> %326, ptr addrspace(3) %142, align 2, !dbg !30
  %327 = insertelement <1 x i16> poison, i16 %308, i64 0, !dbg !30
  store <1 x i16> %327, ptr addrspace(3) %144, align 2, !dbg !30
  %328 = insertelement <1 x i16> poison, i16 %310, i64 0, !dbg !30
  store <1 x i16> %328, ptr addrspace(3) %145, align 2, !dbg !30
  %329 = insertelement <1 x i16> poison, i16 %312, i64 0, !dbg !30
  store <1 x i16> %329, ptr addrspace(3) %147, align 2, !dbg !30
  %330 = insertelement <1 x i16> poison, i16 %314, i64 0, !dbg !30
  store <1 x i16> %330, ptr addrspace(3) %148, align 2, !dbg !30
  %331 = mul i32 %234, %7, !dbg !31
  %332 = mul i32 %235, %7, !dbg !31
  %333 = mul i32 %236, %7, !dbg !31
  %334 = mul i32 %237, %7, !dbg !31
  %335 = mul i32 %238, %7, !dbg !31
  %336 = mul i32 %239, %7, !dbg !31
  %337 = mul i32 %240, %7, !dbg !31
  %338 = mul i32 %241, %7, !dbg !31
  %339 = mul i32 %242, %7, !dbg !31
  %340 = mul i32 %243, %7, !dbg !31
  %341 = mul i32 %244, %7, !dbg !31
  %342 = mul i32 %245, %7, !dbg !31
  %343 = mul i32 %246, %7, !dbg !31
  %344 = mul i32 %247, %7, !dbg !31
  %345 = mul i32 %248, %7, !dbg !31
  %346 = mul i32 %249, %7, !dbg !31
  %347 = sext i32 %331 to i64, !dbg !32
  %348 = sext i32 %332 to i64, !dbg !32
  %349 = sext i32 %333 to i64, !dbg !32
  %350 = sext i32 %334 to i64, !dbg !32
  %351 = sext i32 %335 to i64, !dbg !32
  %352 = sext i32 %336 to i64, !dbg !32
  %353 = sext i32 %337 to i64, !dbg !32
  %354 = sext i32 %338 to i64, !dbg !32
  %355 = sext i32 %339 to i64, !dbg !32
  %356 = sext i32 %340 to i64, !dbg !32
  %357 = sext i32 %341 to i64, !dbg !32
  %358 = sext i32 %342 to i64, !dbg !32
  %359 = sext i32 %343 to i64, !dbg !32
  %360 = sext i32 %344 to i64, !dbg !32
  %361 = sext i32 %345 to i64, !dbg !32
  %362 = sext i32 %346 to i64, !dbg !32
  %gep = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %347, !dbg !32
  %gep65 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %348, !dbg !32
  %gep67 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %349, !dbg !32
  %gep69 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %350, !dbg !32
  %gep71 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %351, !dbg !32
  %gep73 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %352, !dbg !32
  %gep75 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %353, !dbg !32
  %gep77 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %354, !dbg !32
  %gep79 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %355, !dbg !32
  %gep81 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %356, !dbg !32
  %gep83 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %357, !dbg !32
  %gep85 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %358, !dbg !32
  %gep87 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %359, !dbg !32
  %gep89 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %360, !dbg !32
  %gep91 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %361, !dbg !32
  %gep93 = getelementptr [2 x i8], ptr addrspace(1) %invariant.gep, i64 %362, !dbg !32
  %363 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep, i1 %266) #6, !dbg !33
  %364 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep65, i1 %267) #6, !dbg !33
  %365 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep67, i1 %268) #6, !dbg !33
  %366 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep69, i1 %269) #6, !dbg !33
  %367 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep71, i1 %270) #6, !dbg !33
  %368 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep73, i1 %271) #6, !dbg !33
  %369 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep75, i1 %272) #6, !dbg !33
  %370 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep77, i1 %273) #6, !dbg !33
  %371 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep79, i1 %274) #6, !dbg !33
  %372 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep81, i1 %275) #6, !dbg !33
  %373 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep83, i1 %276) #6, !dbg !33
  %374 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep85, i1 %277) #6, !dbg !33
  %375 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep87, i1 %278) #6, !dbg !33
  %376 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep89, i1 %279) #6, !dbg !33
  %377 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep91, i1 %280) #6, !dbg !33
  %378 = tail call i16 asm sideeffect "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=c,c,l,b"(i16 0, ptr addrspace(1) %gep93, i1 %281) #6, !dbg !33
  %379 = insertelement <1 x i16> poison, i16 %363, i64 0, !dbg !33
  store <1 x i16> %379, ptr addrspace(3) %150, align 2, !dbg !33
  %380 = insertelement <1 x i16> poison, i16 %367, i64 0, !dbg !33
  store <1 x i16> %380, ptr addrspace(3) %151, align 2, !dbg !33
  %381 = insertelement <1 x i16> poison, i16 %371, i64 0, !dbg !33
  store <1 x i16> %381, ptr addrspace(3) %152, align 2, !dbg !33
  %382 = insertelement <1 x i16> poison, i16 %375, i64 0, !dbg !33
  store <1 x i16> %382, ptr addrspace(3) %153, align 2, !dbg !33
  %383 = insertelement <1 x i16> poison, i16 %364, i64 0, !dbg !33
  store <1 x i16> %383, ptr addrspace(3) %154, align 2, !dbg !33
  %384 = insertelement <1 x i16> poison, i16 %368, i64 0, !dbg !33
  store <1 x i16> %384, ptr addrspace(3) %155, align 2, !dbg !33
  %385 = insertelement <1 x i16> poison, i16 %372, i64 0, !dbg !33
  store <1 x i16> %385, ptr addrspace(3) %156, align 2, !dbg !33
  %386 = insertelement <1 x i16> poison, i16 %376, i64 0, !dbg !33
  store <1 x i16> %386, ptr addrspace(3) %157, align 2, !dbg !33
  %387 = insertelement <1 x i16> poison, i16 %365, i64 0, !dbg !33
  store <1 x i16> %387, ptr addrspace(3) %159, align 2, !dbg !33
  %388 = insertelement <1 x i16> poison, i16 %369, i64 0, !dbg !33
  store <1 x i16> %388, ptr addrspace(3) %160, align 2, !dbg !33
  %389 = insertelement <1 x i16> poison, i16 %373, i64 0, !dbg !33
  store <1 x i16> %389, ptr addrspace(3) %161, align 2, !dbg !33
  %390 = insertelement <1 x i16> poison, i16 %377, i64 0, !dbg !33
  store <1 x i16> %390, ptr addrspace(3) %162, align 2, !dbg !33
  %391 = insertelement <1 x i16> poison, i16 %366, i64 0, !dbg !33
  store <1 x i16> %391, ptr addrspace(3) %164, align 2, !dbg !33
  %392 = insertelement <1 x i16> poison, i16 %370, i64 0, !dbg !33
  store <1 x i16> %392, ptr addrspace(3) %165, align 2, !dbg !33
  %393 = insertelement <1 x i16> poison, i16 %374, i64 0, !dbg !33
  store <1 x i16> %393, ptr addrspace(3) %166, align 2, !dbg !33
  %394 = insertelement <1 x i16> poison, i16 %378, i64 0, !dbg !33
  store <1 x i16> %394, ptr addrspace(3) %167, align 2, !dbg !33
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta(), !dbg !34
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !34
  tail call void @llvm.nvvm.wgmma.fence.sync.aligned(), !dbg !34
  %395 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31}, $64, $65, $66, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,b"(float %183, float %184, float %185, float %186, float %187, float %188, float %189, float %190, float %191, float %192, float %193, float %194, float %195, float %196, float %197, float %198, float %199, float %200, float %201, float %202, float %203, float %204, float %205, float %206, float %207, float %208, float %209, float %210, float %211, float %212, float %213, float %214, i64 %173, i64 %175, i1 true) #6, !dbg !34
  %396 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 0, !dbg !34
  %397 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 1, !dbg !34
  %398 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 2, !dbg !34
  %399 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 3, !dbg !34
  %400 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 4, !dbg !34
  %401 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 5, !dbg !34
  %402 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 6, !dbg !34
  %403 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 7, !dbg !34
  %404 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 8, !dbg !34
  %405 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 9, !dbg !34
  %406 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 10, !dbg !34
  %407 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 11, !dbg !34
  %408 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 12, !dbg !34
  %409 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 13, !dbg !34
  %410 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 14, !dbg !34
  %411 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 15, !dbg !34
  %412 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 16, !dbg !34
  %413 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 17, !dbg !34
  %414 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 18, !dbg !34
  %415 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 19, !dbg !34
  %416 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 20, !dbg !34
  %417 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 21, !dbg !34
  %418 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 22, !dbg !34
  %419 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 23, !dbg !34
  %420 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 24, !dbg !34
  %421 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 25, !dbg !34
  %422 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 26, !dbg !34
  %423 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 27, !dbg !34
  %424 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 28, !dbg !34
  %425 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 29, !dbg !34
  %426 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 30, !dbg !34
  %427 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %395, 31, !dbg !34
  %428 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31}, $64, $65, $66, 1, 1, 0, 1;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,b"(float %396, float %397, float %398, float %399, float %400, float %401, float %402, float %403, float %404, float %405, float %406, float %407, float %408, float %409, float %410, float %411, float %412, float %413, float %414, float %415, float %416, float %417, float %418, float %419, float %420, float %421, float %422, float %423, float %424, float %425, float %426, float %427, i64 %178, i64 %181, i1 true) #6, !dbg !34
  %429 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 0, !dbg !34
  %430 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 1, !dbg !34
  %431 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 2, !dbg !34
  %432 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 3, !dbg !34
  %433 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 4, !dbg !34
  %434 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 5, !dbg !34
  %435 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 6, !dbg !34
  %436 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 7, !dbg !34
  %437 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 8, !dbg !34
  %438 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 9, !dbg !34
  %439 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 10, !dbg !34
  %440 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 11, !dbg !34
  %441 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 12, !dbg !34
  %442 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 13, !dbg !34
  %443 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 14, !dbg !34
  %444 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 15, !dbg !34
  %445 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 16, !dbg !34
  %446 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 17, !dbg !34
  %447 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 18, !dbg !34
  %448 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 19, !dbg !34
  %449 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 20, !dbg !34
  %450 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 21, !dbg !34
  %451 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 22, !dbg !34
  %452 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 23, !dbg !34
  %453 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 24, !dbg !34
  %454 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 25, !dbg !34
  %455 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 26, !dbg !34
  %456 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 27, !dbg !34
  %457 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 28, !dbg !34
  %458 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 29, !dbg !34
  %459 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 30, !dbg !34
  %460 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %428, 31, !dbg !34
  tail call void @llvm.nvvm.wgmma.commit_group.sync.aligned(), !dbg !34
  %461 = tail call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } asm sideeffect "// wait for regs: $0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32,$33,$34,$35,$36,$37\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=l,=r,=r,=l,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37"(float %429, float %430, float %431, float %432, float %433, float %434, float %435, float %436, float %437, float %438, float %439, float %440, float %441, float %442, float %443, float %444, float %445, float %446, float %447, float %448, float %449, float %450, float %451, float %452, float %453, float %454, float %455, float %456, float %457, float %458, float %459, float %460, ptr addrspace(3) @global_smem, i32 0, i32 0, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 4096), i32 0, i32 0) #6, !dbg !34
  %462 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 0, !dbg !34
  %463 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 1, !dbg !34
  %464 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 2, !dbg !34
  %465 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 3, !dbg !34
  %466 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 4, !dbg !34
  %467 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 5, !dbg !34
  %468 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 6, !dbg !34
  %469 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 7, !dbg !34
  %470 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 8, !dbg !34
  %471 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 9, !dbg !34
  %472 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 10, !dbg !34
  %473 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 11, !dbg !34
  %474 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 12, !dbg !34
  %475 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 13, !dbg !34
  %476 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 14, !dbg !34
  %477 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 15, !dbg !34
  %478 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 16, !dbg !34
  %479 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 17, !dbg !34
  %480 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 18, !dbg !34
  %481 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 19, !dbg !34
  %482 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 20, !dbg !34
  %483 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 21, !dbg !34
  %484 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 22, !dbg !34
  %485 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 23, !dbg !34
  %486 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 24, !dbg !34
  %487 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 25, !dbg !34
  %488 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 26, !dbg !34
  %489 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 27, !dbg !34
  %490 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 28, !dbg !34
  %491 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 29, !dbg !34
  %492 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 30, !dbg !34
  %493 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, ptr addrspace(3), i32, i32, ptr addrspace(3), i32, i32 } %461, 31, !dbg !34
  %494 = add i32 %215, 32, !dbg !24
  %495 = icmp slt i32 %494, %5, !dbg !24
  br i1 %495, label %182, label %._crit_edge, !dbg !24

._crit_edge:                                      ; preds = %182, %.._crit_edge_crit_edge
  %.pre-phi = phi i64 [ %.pre, %.._crit_edge_crit_edge ], [ %149, %182 ], !dbg !25
  %496 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %462, %182 ], !dbg !35
  %497 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %463, %182 ], !dbg !35
  %498 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %464, %182 ], !dbg !35
  %499 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %465, %182 ], !dbg !35
  %500 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %466, %182 ], !dbg !35
  %501 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %467, %182 ], !dbg !35
  %502 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %468, %182 ], !dbg !35
  %503 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %469, %182 ], !dbg !35
  %504 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %470, %182 ], !dbg !35
  %505 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %471, %182 ], !dbg !35
  %506 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %472, %182 ], !dbg !35
  %507 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %473, %182 ], !dbg !35
  %508 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %474, %182 ], !dbg !35
  %509 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %475, %182 ], !dbg !35
  %510 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %476, %182 ], !dbg !35
  %511 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %477, %182 ], !dbg !35
  %512 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %478, %182 ], !dbg !35
  %513 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %479, %182 ], !dbg !35
  %514 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %480, %182 ], !dbg !35
  %515 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %481, %182 ], !dbg !35
  %516 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %482, %182 ], !dbg !35
  %517 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %483, %182 ], !dbg !35
  %518 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %484, %182 ], !dbg !35
  %519 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %485, %182 ], !dbg !35
  %520 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %486, %182 ], !dbg !35
  %521 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %487, %182 ], !dbg !35
  %522 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %488, %182 ], !dbg !35
  %523 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %489, %182 ], !dbg !35
  %524 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %490, %182 ], !dbg !35
  %525 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %491, %182 ], !dbg !35
  %526 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %492, %182 ], !dbg !35
  %527 = phi float [ 0.000000e+00, %.._crit_edge_crit_edge ], [ %493, %182 ], !dbg !35
  %528 = or disjoint i32 %19, %14, !dbg !17
  %529 = or disjoint i32 %528, 62, !dbg !16
  %530 = or disjoint i32 %528, 60, !dbg !16
  %531 = or disjoint i32 %528, 58, !dbg !16
  %532 = or disjoint i32 %528, 56, !dbg !16
  %533 = or disjoint i32 %528, 54, !dbg !16
  %534 = or disjoint i32 %528, 52, !dbg !16
  %535 = or disjoint i32 %528, 50, !dbg !16
  %536 = or disjoint i32 %528, 48, !dbg !16
  %537 = or disjoint i32 %528, 46, !dbg !16
  %538 = or disjoint i32 %528, 44, !dbg !16
  %539 = or disjoint i32 %528, 42, !dbg !16
  %540 = or disjoint i32 %528, 40, !dbg !16
  %541 = or disjoint i32 %528, 38, !dbg !16
  %542 = or disjoint i32 %528, 36, !dbg !16
  %543 = or disjoint i32 %528, 34, !dbg !16
  %544 = or disjoint i32 %528, 32, !dbg !16
  %545 = or disjoint i32 %34, %14, !dbg !16
  %546 = or disjoint i32 %33, %14, !dbg !16
  %547 = or disjoint i32 %32, %14, !dbg !16
  %548 = or disjoint i32 %31, %14, !dbg !16
  %549 = or disjoint i32 %30, %14, !dbg !16
  %550 = or disjoint i32 %29, %14, !dbg !16
  %551 = or disjoint i32 %28, %14, !dbg !16
  %552 = or disjoint i32 %27, %14, !dbg !16
  %553 = or disjoint i32 %26, %14, !dbg !16
  %554 = or disjoint i32 %25, %14, !dbg !16
  %555 = or disjoint i32 %24, %14, !dbg !16
  %556 = or disjoint i32 %23, %14, !dbg !16
  %557 = or disjoint i32 %22, %14, !dbg !16
  %558 = or disjoint i32 %21, %14, !dbg !16
  %559 = or disjoint i32 %20, %14, !dbg !16
  %560 = icmp slt i32 %528, %3, !dbg !36
  %561 = icmp slt i32 %559, %3, !dbg !36
  %562 = icmp slt i32 %558, %3, !dbg !36
  %563 = icmp slt i32 %557, %3, !dbg !36
  %564 = icmp slt i32 %556, %3, !dbg !36
  %565 = icmp slt i32 %555, %3, !dbg !36
  %566 = icmp slt i32 %554, %3, !dbg !36
  %567 = icmp slt i32 %553, %3, !dbg !36
  %568 = icmp slt i32 %552, %3, !dbg !36
  %569 = icmp slt i32 %551, %3, !dbg !36
  %570 = icmp slt i32 %550, %3, !dbg !36
  %571 = icmp slt i32 %549, %3, !dbg !36
  %572 = icmp slt i32 %548, %3, !dbg !36
  %573 = icmp slt i32 %547, %3, !dbg !36
  %574 = icmp slt i32 %546, %3, !dbg !36
  %575 = icmp slt i32 %545, %3, !dbg !36
  %576 = icmp slt i32 %544, %3, !dbg !36
  %577 = icmp slt i32 %543, %3, !dbg !36
  %578 = icmp slt i32 %542, %3, !dbg !36
  %579 = icmp slt i32 %541, %3, !dbg !36
  %580 = icmp slt i32 %540, %3, !dbg !36
  %581 = icmp slt i32 %539, %3, !dbg !36
  %582 = icmp slt i32 %538, %3, !dbg !36
  %583 = icmp slt i32 %537, %3, !dbg !36
  %584 = icmp slt i32 %536, %3, !dbg !36
  %585 = icmp slt i32 %535, %3, !dbg !36
  %586 = icmp slt i32 %534, %3, !dbg !36
  %587 = icmp slt i32 %533, %3, !dbg !36
  %588 = icmp slt i32 %532, %3, !dbg !36
  %589 = icmp slt i32 %531, %3, !dbg !36
  %590 = icmp slt i32 %530, %3, !dbg !36
  %591 = icmp slt i32 %529, %3, !dbg !36
  %592 = and i1 %560, %72, !dbg !37
  %593 = and i1 %561, %72, !dbg !37
  %594 = and i1 %562, %72, !dbg !37
  %595 = and i1 %563, %72, !dbg !37
  %596 = and i1 %564, %72, !dbg !37
  %597 = and i1 %565, %72, !dbg !37
  %598 = and i1 %566, %72, !dbg !37
  %599 = and i1 %567, %72, !dbg !37
  %600 = and i1 %568, %72, !dbg !37
  %601 = and i1 %569, %72, !dbg !37
  %602 = and i1 %570, %72, !dbg !37
  %603 = and i1 %571, %72, !dbg !37
  %604 = and i1 %572, %72, !dbg !37
  %605 = and i1 %573, %72, !dbg !37
  %606 = and i1 %574, %72, !dbg !37
  %607 = and i1 %575, %72, !dbg !37
  %608 = and i1 %576, %72, !dbg !37
  %609 = and i1 %577, %72, !dbg !37
  %610 = and i1 %578, %72, !dbg !37
  %611 = and i1 %579, %72, !dbg !37
  %612 = and i1 %580, %72, !dbg !37
  %613 = and i1 %581, %72, !dbg !37
  %614 = and i1 %582, %72, !dbg !37
  %615 = and i1 %583, %72, !dbg !37
  %616 = and i1 %584, %72, !dbg !37
  %617 = and i1 %585, %72, !dbg !37
  %618 = and i1 %586, %72, !dbg !37
  %619 = and i1 %587, %72, !dbg !37
  %620 = and i1 %588, %72, !dbg !37
  %621 = and i1 %589, %72, !dbg !37
  %622 = and i1 %590, %72, !dbg !37
  %623 = and i1 %591, %72, !dbg !37
  %624 = mul i32 %8, %528, !dbg !38
  %625 = mul i32 %8, %559, !dbg !38
  %626 = mul i32 %8, %558, !dbg !38
  %627 = mul i32 %8, %557, !dbg !38
  %628 = mul i32 %8, %556, !dbg !38
  %629 = mul i32 %8, %555, !dbg !38
  %630 = mul i32 %8, %554, !dbg !38
  %631 = mul i32 %8, %553, !dbg !38
  %632 = mul i32 %8, %552, !dbg !38
  %633 = mul i32 %8, %551, !dbg !38
  %634 = mul i32 %8, %550, !dbg !38
  %635 = mul i32 %8, %549, !dbg !38
  %636 = mul i32 %8, %548, !dbg !38
  %637 = mul i32 %8, %547, !dbg !38
  %638 = mul i32 %8, %546, !dbg !38
  %639 = mul i32 %8, %545, !dbg !38
  %640 = mul i32 %8, %544, !dbg !38
  %641 = mul i32 %8, %543, !dbg !38
  %642 = mul i32 %8, %542, !dbg !38
  %643 = mul i32 %8, %541, !dbg !38
  %644 = mul i32 %8, %540, !dbg !38
  %645 = mul i32 %8, %539, !dbg !38
  %646 = mul i32 %8, %538, !dbg !38
  %647 = mul i32 %8, %537, !dbg !38
  %648 = mul i32 %8, %536, !dbg !38
  %649 = mul i32 %8, %535, !dbg !38
  %650 = mul i32 %8, %534, !dbg !38
  %651 = mul i32 %8, %533, !dbg !38
  %652 = mul i32 %8, %532, !dbg !38
  %653 = mul i32 %8, %531, !dbg !38
  %654 = mul i32 %8, %530, !dbg !38
  %655 = mul i32 %8, %529, !dbg !38
  %656 = sext i32 %624 to i64, !dbg !25
  %657 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %656, !dbg !25
  %658 = sext i32 %625 to i64, !dbg !25
  %659 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %658, !dbg !25
  %660 = sext i32 %626 to i64, !dbg !25
  %661 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %660, !dbg !25
  %662 = sext i32 %627 to i64, !dbg !25
  %663 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %662, !dbg !25
  %664 = sext i32 %628 to i64, !dbg !25
  %665 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %664, !dbg !25
  %666 = sext i32 %629 to i64, !dbg !25
  %667 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %666, !dbg !25
  %668 = sext i32 %630 to i64, !dbg !25
  %669 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %668, !dbg !25
  %670 = sext i32 %631 to i64, !dbg !25
  %671 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %670, !dbg !25
  %672 = sext i32 %632 to i64, !dbg !25
  %673 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %672, !dbg !25
  %674 = sext i32 %633 to i64, !dbg !25
  %675 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %674, !dbg !25
  %676 = sext i32 %634 to i64, !dbg !25
  %677 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %676, !dbg !25
  %678 = sext i32 %635 to i64, !dbg !25
  %679 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %678, !dbg !25
  %680 = sext i32 %636 to i64, !dbg !25
  %681 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %680, !dbg !25
  %682 = sext i32 %637 to i64, !dbg !25
  %683 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %682, !dbg !25
  %684 = sext i32 %638 to i64, !dbg !25
  %685 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %684, !dbg !25
  %686 = sext i32 %639 to i64, !dbg !25
  %687 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %686, !dbg !25
  %688 = sext i32 %640 to i64, !dbg !25
  %689 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %688, !dbg !25
  %690 = sext i32 %641 to i64, !dbg !25
  %691 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %690, !dbg !25
  %692 = sext i32 %642 to i64, !dbg !25
  %693 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %692, !dbg !25
  %694 = sext i32 %643 to i64, !dbg !25
  %695 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %694, !dbg !25
  %696 = sext i32 %644 to i64, !dbg !25
  %697 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %696, !dbg !25
  %698 = sext i32 %645 to i64, !dbg !25
  %699 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %698, !dbg !25
  %700 = sext i32 %646 to i64, !dbg !25
  %701 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %700, !dbg !25
  %702 = sext i32 %647 to i64, !dbg !25
  %703 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %702, !dbg !25
  %704 = sext i32 %648 to i64, !dbg !25
  %705 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %704, !dbg !25
  %706 = sext i32 %649 to i64, !dbg !25
  %707 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %706, !dbg !25
  %708 = sext i32 %650 to i64, !dbg !25
  %709 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %708, !dbg !25
  %710 = sext i32 %651 to i64, !dbg !25
  %711 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %710, !dbg !25
  %712 = sext i32 %652 to i64, !dbg !25
  %713 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %712, !dbg !25
  %714 = sext i32 %653 to i64, !dbg !25
  %715 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %714, !dbg !25
  %716 = sext i32 %654 to i64, !dbg !25
  %717 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %716, !dbg !25
  %718 = sext i32 %655 to i64, !dbg !25
  %719 = getelementptr [4 x i8], ptr addrspace(1) %2, i64 %718, !dbg !25
  %720 = getelementptr [4 x i8], ptr addrspace(1) %657, i64 %.pre-phi, !dbg !25
  %721 = getelementptr [4 x i8], ptr addrspace(1) %659, i64 %.pre-phi, !dbg !25
  %722 = getelementptr [4 x i8], ptr addrspace(1) %661, i64 %.pre-phi, !dbg !25
  %723 = getelementptr [4 x i8], ptr addrspace(1) %663, i64 %.pre-phi, !dbg !25
  %724 = getelementptr [4 x i8], ptr addrspace(1) %665, i64 %.pre-phi, !dbg !25
  %725 = getelementptr [4 x i8], ptr addrspace(1) %667, i64 %.pre-phi, !dbg !25
  %726 = getelementptr [4 x i8], ptr addrspace(1) %669, i64 %.pre-phi, !dbg !25
  %727 = getelementptr [4 x i8], ptr addrspace(1) %671, i64 %.pre-phi, !dbg !25
  %728 = getelementptr [4 x i8], ptr addrspace(1) %673, i64 %.pre-phi, !dbg !25
  %729 = getelementptr [4 x i8], ptr addrspace(1) %675, i64 %.pre-phi, !dbg !25
  %730 = getelementptr [4 x i8], ptr addrspace(1) %677, i64 %.pre-phi, !dbg !25
  %731 = getelementptr [4 x i8], ptr addrspace(1) %679, i64 %.pre-phi, !dbg !25
  %732 = getelementptr [4 x i8], ptr addrspace(1) %681, i64 %.pre-phi, !dbg !25
  %733 = getelementptr [4 x i8], ptr addrspace(1) %683, i64 %.pre-phi, !dbg !25
  %734 = getelementptr [4 x i8], ptr addrspace(1) %685, i64 %.pre-phi, !dbg !25
  %735 = getelementptr [4 x i8], ptr addrspace(1) %687, i64 %.pre-phi, !dbg !25
  %736 = getelementptr [4 x i8], ptr addrspace(1) %689, i64 %.pre-phi, !dbg !25
  %737 = getelementptr [4 x i8], ptr addrspace(1) %691, i64 %.pre-phi, !dbg !25
  %738 = getelementptr [4 x i8], ptr addrspace(1) %693, i64 %.pre-phi, !dbg !25
  %739 = getelementptr [4 x i8], ptr addrspace(1) %695, i64 %.pre-phi, !dbg !25
  %740 = getelementptr [4 x i8], ptr addrspace(1) %697, i64 %.pre-phi, !dbg !25
  %741 = getelementptr [4 x i8], ptr addrspace(1) %699, i64 %.pre-phi, !dbg !25
  %742 = getelementptr [4 x i8], ptr addrspace(1) %701, i64 %.pre-phi, !dbg !25
  %743 = getelementptr [4 x i8], ptr addrspace(1) %703, i64 %.pre-phi, !dbg !25
  %744 = getelementptr [4 x i8], ptr addrspace(1) %705, i64 %.pre-phi, !dbg !25
  %745 = getelementptr [4 x i8], ptr addrspace(1) %707, i64 %.pre-phi, !dbg !25
  %746 = getelementptr [4 x i8], ptr addrspace(1) %709, i64 %.pre-phi, !dbg !25
  %747 = getelementptr [4 x i8], ptr addrspace(1) %711, i64 %.pre-phi, !dbg !25
  %748 = getelementptr [4 x i8], ptr addrspace(1) %713, i64 %.pre-phi, !dbg !25
  %749 = getelementptr [4 x i8], ptr addrspace(1) %715, i64 %.pre-phi, !dbg !25
  %750 = getelementptr [4 x i8], ptr addrspace(1) %717, i64 %.pre-phi, !dbg !25
  %751 = getelementptr [4 x i8], ptr addrspace(1) %719, i64 %.pre-phi, !dbg !25
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !39
  %752 = and i32 %15, 12, !dbg !39
  %753 = shl nuw nsw i32 %752, 10, !dbg !39
  %754 = shl nuw nsw i32 %15, 5, !dbg !39
  %755 = and i32 %754, 96, !dbg !39
  %756 = shl nuw nsw i32 %752, 1, !dbg !39
  %757 = or disjoint i32 %753, %755, !dbg !39
  %758 = or disjoint i32 %757, %756, !dbg !39
  %759 = insertelement <2 x float> poison, float %496, i64 0, !dbg !39
  %760 = insertelement <2 x float> %759, float %498, i64 1, !dbg !39
  %761 = insertelement <2 x float> poison, float %504, i64 0, !dbg !39
  %762 = insertelement <2 x float> %761, float %506, i64 1, !dbg !39
  %763 = insertelement <2 x float> poison, float %512, i64 0, !dbg !39
  %764 = insertelement <2 x float> %763, float %514, i64 1, !dbg !39
  %765 = insertelement <2 x float> poison, float %520, i64 0, !dbg !39
  %766 = insertelement <2 x float> %765, float %522, i64 1, !dbg !39
  %767 = insertelement <2 x float> poison, float %497, i64 0, !dbg !39
  %768 = insertelement <2 x float> %767, float %499, i64 1, !dbg !39
  %769 = insertelement <2 x float> poison, float %505, i64 0, !dbg !39
  %770 = insertelement <2 x float> %769, float %507, i64 1, !dbg !39
  %771 = insertelement <2 x float> poison, float %513, i64 0, !dbg !39
  %772 = insertelement <2 x float> %771, float %515, i64 1, !dbg !39
  %773 = insertelement <2 x float> poison, float %521, i64 0, !dbg !39
  %774 = insertelement <2 x float> %773, float %523, i64 1, !dbg !39
  %775 = insertelement <2 x float> poison, float %500, i64 0, !dbg !39
  %776 = insertelement <2 x float> %775, float %502, i64 1, !dbg !39
  %777 = insertelement <2 x float> poison, float %508, i64 0, !dbg !39
  %778 = insertelement <2 x float> %777, float %510, i64 1, !dbg !39
  %779 = insertelement <2 x float> poison, float %516, i64 0, !dbg !39
  %780 = insertelement <2 x float> %779, float %518, i64 1, !dbg !39
  %781 = insertelement <2 x float> poison, float %524, i64 0, !dbg !39
  %782 = insertelement <2 x float> %781, float %526, i64 1, !dbg !39
  %783 = insertelement <2 x float> poison, float %501, i64 0, !dbg !39
  %784 = insertelement <2 x float> %783, float %503, i64 1, !dbg !39
  %785 = insertelement <2 x float> poison, float %509, i64 0, !dbg !39
  %786 = insertelement <2 x float> %785, float %511, i64 1, !dbg !39
  %787 = insertelement <2 x float> poison, float %517, i64 0, !dbg !39
  %788 = insertelement <2 x float> %787, float %519, i64 1, !dbg !39
  %789 = insertelement <2 x float> poison, float %525, i64 0, !dbg !39
  %790 = insertelement <2 x float> %789, float %527, i64 1, !dbg !39
  %791 = icmp eq i32 %18, 0, !dbg !39
  %792 = select i1 %791, i32 0, i32 4104, !dbg !39
  %793 = shl nuw nsw i32 %15, 3, !dbg !39
  %794 = and i32 %793, 896, !dbg !39
  %795 = or disjoint i32 %758, %794, !dbg !39
  %796 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %795, !dbg !39
  store <2 x float> %760, ptr addrspace(3) %796, align 8, !dbg !39
  %797 = getelementptr inbounds nuw i8, ptr addrspace(3) %796, i32 1024, !dbg !39
  store <2 x float> %762, ptr addrspace(3) %797, align 8, !dbg !39
  %798 = getelementptr inbounds nuw i8, ptr addrspace(3) %796, i32 2048, !dbg !39
  store <2 x float> %764, ptr addrspace(3) %798, align 8, !dbg !39
  %799 = getelementptr inbounds nuw i8, ptr addrspace(3) %796, i32 3072, !dbg !39
  store <2 x float> %766, ptr addrspace(3) %799, align 8, !dbg !39
  %800 = xor i32 %795, 8, !dbg !39
  %801 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %800, !dbg !39
  store <2 x float> %768, ptr addrspace(3) %801, align 8, !dbg !39
  %802 = getelementptr inbounds nuw i8, ptr addrspace(3) %801, i32 1024, !dbg !39
  store <2 x float> %770, ptr addrspace(3) %802, align 8, !dbg !39
  %803 = getelementptr inbounds nuw i8, ptr addrspace(3) %801, i32 2048, !dbg !39
  store <2 x float> %772, ptr addrspace(3) %803, align 8, !dbg !39
  %804 = getelementptr inbounds nuw i8, ptr addrspace(3) %801, i32 3072, !dbg !39
  store <2 x float> %774, ptr addrspace(3) %804, align 8, !dbg !39
  %805 = xor i32 %795, 16, !dbg !39
  %806 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %805, !dbg !39
  store <2 x float> %776, ptr addrspace(3) %806, align 8, !dbg !39
  %807 = getelementptr inbounds nuw i8, ptr addrspace(3) %806, i32 1024, !dbg !39
  store <2 x float> %778, ptr addrspace(3) %807, align 8, !dbg !39
  %808 = getelementptr inbounds nuw i8, ptr addrspace(3) %806, i32 2048, !dbg !39
  store <2 x float> %780, ptr addrspace(3) %808, align 8, !dbg !39
  %809 = getelementptr inbounds nuw i8, ptr addrspace(3) %806, i32 3072, !dbg !39
  store <2 x float> %782, ptr addrspace(3) %809, align 8, !dbg !39
  %810 = xor i32 %795, 24, !dbg !39
  %811 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %810, !dbg !39
  store <2 x float> %784, ptr addrspace(3) %811, align 8, !dbg !39
  %812 = getelementptr inbounds nuw i8, ptr addrspace(3) %811, i32 1024, !dbg !39
  store <2 x float> %786, ptr addrspace(3) %812, align 8, !dbg !39
  %813 = getelementptr inbounds nuw i8, ptr addrspace(3) %811, i32 2048, !dbg !39
  store <2 x float> %788, ptr addrspace(3) %813, align 8, !dbg !39
  %814 = getelementptr inbounds nuw i8, ptr addrspace(3) %811, i32 3072, !dbg !39
  store <2 x float> %790, ptr addrspace(3) %814, align 8, !dbg !39
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !39
  %815 = and i32 %793, 8, !dbg !39
  %816 = insertelement <4 x i32> poison, i32 %15, i64 0, !dbg !39
  %817 = insertelement <4 x i32> %816, i32 %815, i64 1, !dbg !39
  %818 = shufflevector <4 x i32> %817, <4 x i32> poison, <4 x i32> <i32 0, i32 0, i32 0, i32 1>, !dbg !39
  %819 = shl nuw nsw <4 x i32> %818, <i32 6, i32 4, i32 1, i32 0>, !dbg !39
  %820 = insertelement <4 x i32> <i32 3072, i32 96, i32 16, i32 poison>, i32 %792, i64 3, !dbg !39
  %821 = and <4 x i32> %820, %819, !dbg !39
  %822 = xor <4 x i32> %820, %819, !dbg !39
  %823 = shufflevector <4 x i32> %821, <4 x i32> %822, <4 x i32> <i32 0, i32 1, i32 2, i32 7>, !dbg !39
  %824 = tail call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %823), !dbg !39
  %825 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %824, !dbg !39
  %826 = load <2 x i32>, ptr addrspace(3) %825, align 8, !dbg !39
  %827 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 128, !dbg !39
  %828 = load <2 x i32>, ptr addrspace(3) %827, align 8, !dbg !39
  %829 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 256, !dbg !39
  %830 = load <2 x i32>, ptr addrspace(3) %829, align 8, !dbg !39
  %831 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 384, !dbg !39
  %832 = load <2 x i32>, ptr addrspace(3) %831, align 8, !dbg !39
  %833 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 512, !dbg !39
  %834 = load <2 x i32>, ptr addrspace(3) %833, align 8, !dbg !39
  %835 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 640, !dbg !39
  %836 = load <2 x i32>, ptr addrspace(3) %835, align 8, !dbg !39
  %837 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 768, !dbg !39
  %838 = load <2 x i32>, ptr addrspace(3) %837, align 8, !dbg !39
  %839 = getelementptr inbounds nuw i8, ptr addrspace(3) %825, i32 896, !dbg !39
  %840 = load <2 x i32>, ptr addrspace(3) %839, align 8, !dbg !39
  %841 = xor i32 %824, 8208, !dbg !39
  %842 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 %841, !dbg !39
  %843 = load <2 x i32>, ptr addrspace(3) %842, align 8, !dbg !39
  %844 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 128, !dbg !39
  %845 = load <2 x i32>, ptr addrspace(3) %844, align 8, !dbg !39
  %846 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 256, !dbg !39
  %847 = load <2 x i32>, ptr addrspace(3) %846, align 8, !dbg !39
  %848 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 384, !dbg !39
  %849 = load <2 x i32>, ptr addrspace(3) %848, align 8, !dbg !39
  %850 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 512, !dbg !39
  %851 = load <2 x i32>, ptr addrspace(3) %850, align 8, !dbg !39
  %852 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 640, !dbg !39
  %853 = load <2 x i32>, ptr addrspace(3) %852, align 8, !dbg !39
  %854 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 768, !dbg !39
  %855 = load <2 x i32>, ptr addrspace(3) %854, align 8, !dbg !39
  %856 = getelementptr inbounds nuw i8, ptr addrspace(3) %842, i32 896, !dbg !39
  %857 = load <2 x i32>, ptr addrspace(3) %856, align 8, !dbg !39
  %.extract = extractelement <2 x i32> %826, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract, ptr addrspace(1) %720, i1 %592) #6, !dbg !39
  %.extract33 = extractelement <2 x i32> %843, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract33, ptr addrspace(1) %721, i1 %593) #6, !dbg !39
  %.extract34 = extractelement <2 x i32> %828, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract34, ptr addrspace(1) %722, i1 %594) #6, !dbg !39
  %.extract35 = extractelement <2 x i32> %845, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract35, ptr addrspace(1) %723, i1 %595) #6, !dbg !39
  %.extract36 = extractelement <2 x i32> %826, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract36, ptr addrspace(1) %724, i1 %596) #6, !dbg !39
  %.extract37 = extractelement <2 x i32> %843, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract37, ptr addrspace(1) %725, i1 %597) #6, !dbg !39
  %.extract38 = extractelement <2 x i32> %828, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract38, ptr addrspace(1) %726, i1 %598) #6, !dbg !39
  %.extract39 = extractelement <2 x i32> %845, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract39, ptr addrspace(1) %727, i1 %599) #6, !dbg !39
  %.extract40 = extractelement <2 x i32> %830, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract40, ptr addrspace(1) %728, i1 %600) #6, !dbg !39
  %.extract41 = extractelement <2 x i32> %847, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract41, ptr addrspace(1) %729, i1 %601) #6, !dbg !39
  %.extract42 = extractelement <2 x i32> %832, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract42, ptr addrspace(1) %730, i1 %602) #6, !dbg !39
  %.extract43 = extractelement <2 x i32> %849, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract43, ptr addrspace(1) %731, i1 %603) #6, !dbg !39
  %.extract44 = extractelement <2 x i32> %830, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract44, ptr addrspace(1) %732, i1 %604) #6, !dbg !39
  %.extract45 = extractelement <2 x i32> %847, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract45, ptr addrspace(1) %733, i1 %605) #6, !dbg !39
  %.extract46 = extractelement <2 x i32> %832, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract46, ptr addrspace(1) %734, i1 %606) #6, !dbg !39
  %.extract47 = extractelement <2 x i32> %849, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract47, ptr addrspace(1) %735, i1 %607) #6, !dbg !39
  %.extract48 = extractelement <2 x i32> %834, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract48, ptr addrspace(1) %736, i1 %608) #6, !dbg !39
  %.extract49 = extractelement <2 x i32> %851, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract49, ptr addrspace(1) %737, i1 %609) #6, !dbg !39
  %.extract50 = extractelement <2 x i32> %836, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract50, ptr addrspace(1) %738, i1 %610) #6, !dbg !39
  %.extract51 = extractelement <2 x i32> %853, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract51, ptr addrspace(1) %739, i1 %611) #6, !dbg !39
  %.extract52 = extractelement <2 x i32> %834, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract52, ptr addrspace(1) %740, i1 %612) #6, !dbg !39
  %.extract53 = extractelement <2 x i32> %851, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract53, ptr addrspace(1) %741, i1 %613) #6, !dbg !39
  %.extract54 = extractelement <2 x i32> %836, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract54, ptr addrspace(1) %742, i1 %614) #6, !dbg !39
  %.extract55 = extractelement <2 x i32> %853, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract55, ptr addrspace(1) %743, i1 %615) #6, !dbg !39
  %.extract56 = extractelement <2 x i32> %838, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract56, ptr addrspace(1) %744, i1 %616) #6, !dbg !39
  %.extract57 = extractelement <2 x i32> %855, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract57, ptr addrspace(1) %745, i1 %617) #6, !dbg !39
  %.extract58 = extractelement <2 x i32> %840, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract58, ptr addrspace(1) %746, i1 %618) #6, !dbg !39
  %.extract59 = extractelement <2 x i32> %857, i64 0, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract59, ptr addrspace(1) %747, i1 %619) #6, !dbg !39
  %.extract60 = extractelement <2 x i32> %838, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract60, ptr addrspace(1) %748, i1 %620) #6, !dbg !39
  %.extract61 = extractelement <2 x i32> %855, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract61, ptr addrspace(1) %749, i1 %621) #6, !dbg !39
  %.extract62 = extractelement <2 x i32> %840, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract62, ptr addrspace(1) %750, i1 %622) #6, !dbg !39
  %.extract63 = extractelement <2 x i32> %857, i64 1, !dbg !39
  tail call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %.extract63, ptr addrspace(1) %751, i1 %623) #6, !dbg !39
  ret void, !dbg !40
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2

; Function Attrs: nocallback nounwind
declare void @llvm.nvvm.fence.proxy.async.shared_cta() #3

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.fence.sync.aligned() #4

; Function Attrs: convergent nounwind
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned() #4

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>) #5

attributes #0 = { nounwind "nvvm.reqntid"="128" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { nocallback nounwind }
attributes #4 = { convergent nounwind }
attributes #5 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { nounwind }

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
!20 = !DILocation(line: 54, column: 39, scope: !4)
!21 = !DILocation(line: 55, column: 39, scope: !4)
!22 = !DILocation(line: 56, column: 25, scope: !4)
!23 = !DILocation(line: 56, column: 21, scope: !4)
!24 = !DILocation(line: 53, column: 5, scope: !4)
!25 = !DILocation(line: 59, column: 14, scope: !4)
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
!36 = !DILocation(line: 60, column: 20, scope: !4)
!37 = !DILocation(line: 60, column: 19, scope: !4)
!38 = !DILocation(line: 59, column: 18, scope: !4)
!39 = !DILocation(line: 59, column: 5, scope: !4)
!40 = !DILocation(line: 45, column: 1, scope: !4)
