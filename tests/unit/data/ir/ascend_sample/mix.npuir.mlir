// kopt sample, written by hand (see kernel.npuir.mlir): a MIX kernel after hivm-split-mix-kernel,
// one cube (AIC) and one vector (AIV) function synchronised with sync_block_set/wait, with no
// module-level core type, so the core type must be combined from the functions. NOT produced
// by bishengir: no Ascend toolchain or device was available.
module {
  func.func @mm_relu_mix_aic(%arg0: memref<128x64xf16, #hivm.address_space<gm>>, %arg1: memref<64x128xf16, #hivm.address_space<gm>>, %arg2: memref<128x128xf32, #hivm.address_space<gm>>) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) [] : memref<128x64xf16, #hivm.address_space<cbuf>>
    hivm.hir.nd2nz ins(%arg0 : memref<128x64xf16, #hivm.address_space<gm>>) outs(%0 : memref<128x64xf16, #hivm.address_space<cbuf>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_MTE1>, <EVENT_ID0>]
    hivm.hir.mmadL1 ins(%0, %0 : memref<128x64xf16, #hivm.address_space<cbuf>>, memref<128x64xf16, #hivm.address_space<cbuf>>) outs(%arg2 : memref<128x128xf32, #hivm.address_space<gm>>)
    hivm.hir.sync_block_set[<CUBE>, <PIPE_FIX>, <PIPE_MTE2>] flag = 1
    return
  }
  func.func @mm_relu_mix_aiv(%arg0: memref<128x128xf32, #hivm.address_space<gm>>)
      attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) [] : memref<128x128xf32, #hivm.address_space<ub>>
    hivm.hir.sync_block_wait[<VECTOR>, <PIPE_FIX>, <PIPE_MTE2>] flag = 1
    hivm.hir.load ins(%arg0 : memref<128x128xf32, #hivm.address_space<gm>>) outs(%0 : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    hivm.hir.vrelu ins(%0 : memref<128x128xf32, #hivm.address_space<ub>>) outs(%0 : memref<128x128xf32, #hivm.address_space<ub>>)
    hivm.hir.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    hivm.hir.store ins(%0 : memref<128x128xf32, #hivm.address_space<ub>>) outs(%arg0 : memref<128x128xf32, #hivm.address_space<gm>>)
    hivm.hir.pipe_barrier[<PIPE_ALL>]
    return
  }
}
