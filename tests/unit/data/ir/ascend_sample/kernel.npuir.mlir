// kopt sample, written by hand: HIVM IR after hivm-inject-sync as triton-ascend saves it in
// kernel.npuir.mlir (TRITON_DEBUG=1), in the textual forms shown by the AscendNPU-IR docs and
// tests (bishengir/test/Dialect/HIVM/inject-sync.mlir, hivm-lower-to-loops-op.mlir) and with
// MLIR debug locations. NOT produced by bishengir: no Ascend toolchain or device was available.
// Kernel: out = x + y on i64 (lowered to a scalar loop), then out2 = x16 * 2.0 on f16 (vector).
#loc = loc("/work/kernels/add_i64.py":7:0)
#loc1 = loc("/work/kernels/add_i64.py":11:12)
#loc2 = loc("/work/kernels/add_i64.py":12:12)
#loc3 = loc("/work/kernels/add_i64.py":13:14)
#loc4 = loc("/work/kernels/add_i64.py":14:4)
#loc5 = loc("/work/kernels/add_i64.py":16:14)
#loc6 = loc("/work/kernels/add_i64.py":17:4)
#loc7 = loc("z"(#loc3))
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @add_i64_kernel(%arg0: memref<4096xi64, #hivm.address_space<gm>>, %arg1: memref<4096xi64, #hivm.address_space<gm>>, %arg2: memref<4096xi64, #hivm.address_space<gm>>, %arg3: memref<4096xf16, #hivm.address_space<gm>>, %arg4: memref<4096xf16, #hivm.address_space<gm>>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, mix_mode = "aiv"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %c0_i64 = arith.constant 0 : i64
    %c32768_i64 = arith.constant 32768 : i64
    %c65536_i64 = arith.constant 65536 : i64
    %c98304_i64 = arith.constant 98304 : i64
    %cst = arith.constant 2.000000e+00 : f16
    %0 = hivm.hir.pointer_cast(%c0_i64) [] : memref<4096xi64, #hivm.address_space<ub>>
    %1 = hivm.hir.pointer_cast(%c32768_i64) [] : memref<4096xi64, #hivm.address_space<ub>>
    %2 = hivm.hir.pointer_cast(%c65536_i64) [] : memref<4096xi64, #hivm.address_space<ub>>
    %3 = hivm.hir.pointer_cast(%c98304_i64) [] : memref<1024xf16, #hivm.address_space<ub>>
    hivm.hir.load ins(%arg0 : memref<4096xi64, #hivm.address_space<gm>>) outs(%0 : memref<4096xi64, #hivm.address_space<ub>>) loc(#loc1)
    hivm.hir.load ins(%arg1 : memref<4096xi64, #hivm.address_space<gm>>) outs(%1 : memref<4096xi64, #hivm.address_space<ub>>) loc(#loc2)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_S>, <EVENT_ID0>] loc(#loc3)
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_S>, <EVENT_ID0>] loc(#loc3)
    scf.for %arg5 = %c0 to %c4096 step %c1 {
      %4 = memref.load %0[%arg5] : memref<4096xi64, #hivm.address_space<ub>> loc(#loc7)
      %5 = memref.load %1[%arg5] : memref<4096xi64, #hivm.address_space<ub>> loc(#loc7)
      %6 = arith.addi %4, %5 : i64 loc(#loc7)
      memref.store %6, %2[%arg5] : memref<4096xi64, #hivm.address_space<ub>> loc(#loc7)
    } loc(#loc7)
    hivm.hir.set_flag[<PIPE_S>, <PIPE_MTE3>, <EVENT_ID0>] loc(#loc4)
    hivm.hir.wait_flag[<PIPE_S>, <PIPE_MTE3>, <EVENT_ID0>] loc(#loc4)
    hivm.hir.store ins(%2 : memref<4096xi64, #hivm.address_space<ub>>) outs(%arg2 : memref<4096xi64, #hivm.address_space<gm>>) loc(#loc4)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    scf.for %arg6 = %c0 to %c4096 step %c1024 {
      %7 = arith.index_cast %arg6 : index to i64 loc(#loc5)
      %subview = memref.subview %arg3[%arg6] [1024] [1] : memref<4096xf16, #hivm.address_space<gm>> to memref<1024xf16, strided<[1], offset: ?>, #hivm.address_space<gm>> loc(#loc5)
      %subview_0 = memref.subview %arg4[%arg6] [1024] [1] : memref<4096xf16, #hivm.address_space<gm>> to memref<1024xf16, strided<[1], offset: ?>, #hivm.address_space<gm>> loc(#loc6)
      hivm.hir.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>] loc(#loc5)
      hivm.hir.load ins(%subview : memref<1024xf16, strided<[1], offset: ?>, #hivm.address_space<gm>>) outs(%3 : memref<1024xf16, #hivm.address_space<ub>>) loc(#loc5)
      hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>] loc(#loc5)
      hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID1>] loc(#loc5)
      hivm.hir.vmul ins(%3, %cst : memref<1024xf16, #hivm.address_space<ub>>, f16) outs(%3 : memref<1024xf16, #hivm.address_space<ub>>) loc(#loc5)
      hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>] loc(#loc6)
      hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID1>] loc(#loc6)
      hivm.hir.store ins(%3 : memref<1024xf16, #hivm.address_space<ub>>) outs(%subview_0 : memref<1024xf16, strided<[1], offset: ?>, #hivm.address_space<gm>>) loc(#loc6)
      hivm.hir.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID1>] loc(#loc6)
    } loc(#loc5)
    hivm.hir.pipe_barrier[<PIPE_MTE3>]
    return loc(#loc)
  } loc(#loc)
} loc(#loc)
