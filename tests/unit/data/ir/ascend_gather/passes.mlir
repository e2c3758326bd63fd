// -----// IR Dump Before DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %6, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %6, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %6, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %6, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %9 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %6, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = arith.extsi %9 : tensor<256xi32> to tensor<256xi64>
    %11 = tensor.empty() : tensor<256xf32>
    %12 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %11) -> (tensor<256xf32>) {
      %extracted = tensor.extract %10[%arg4] {DiscreteMemAccess} : tensor<256xi64>
      %16 = tt.addptr %arg0, %extracted : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %13 = arith.select %6, %12, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %15, %13, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLinalg (triton-to-linalg) //----- //
module {
  tt.func public @gather(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<256x!tt.ptr<i32>>
    %10 = tensor.empty() : tensor<256xf32>
    %11 = scf.for %arg4 = %c0 to %c256 step %c1 iter_args(%arg5 = %10) -> (tensor<256xf32>) {
      %extracted = tensor.extract %9[%arg4] {DiscreteMemAccess} : tensor<256xi32>
      %15 = arith.extsi %extracted : i32 to i64
      %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i64
      %17 = tt.load %16 {DiscreteMemAccess} : !tt.ptr<f32>
      %inserted = tensor.insert %17 into %arg5[%arg4] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %12 = arith.select %6, %11, %cst {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %13 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %6 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @gather(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<256xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256xf32>) -> tensor<256xf32>
    %c256_i32 = arith.constant 256 : i32
    %2 = arith.muli %arg7, %c256_i32 : i32
    %3 = tensor.empty() : tensor<256xi32>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%3 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %31 = linalg.index 0 : index
      %32 = arith.index_cast %31 : index to i32
      linalg.yield %32 : i32
    } -> tensor<256xi32>
    %5 = tensor.empty() : tensor<256xi32>
    %6 = linalg.fill ins(%2 : i32) outs(%5 : tensor<256xi32>) -> tensor<256xi32>
    %7 = arith.addi %6, %4 : tensor<256xi32>
    %8 = tensor.empty() : tensor<256xi32>
    %9 = linalg.fill ins(%arg3 : i32) outs(%8 : tensor<256xi32>) -> tensor<256xi32>
    %10 = arith.cmpi slt, %7, %9 : tensor<256xi32>
    %11 = arith.index_cast %2 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%11], sizes: [256], strides: [1] : memref<?xi32> to memref<256xi32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xi32>
    %12 = arith.index_cast %2 : i32 to index
    %c256_0 = arith.constant 256 : index
    %13 = arith.addi %c256_0, %12 : index
    %14 = arith.index_cast %arg3 : i32 to index
    %15 = arith.maxsi %12, %14 : index
    %16 = arith.minsi %13, %15 : index
    %17 = arith.subi %16, %12 : index
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %c256_1 = arith.constant 256 : index
    %18 = arith.cmpi slt, %17, %c256_1 : index
    %19 = arith.ori %false, %18 : i1
    scf.if %19 {
      linalg.fill ins(%c0_i32 : i32) outs(%alloc : memref<256xi32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0] [%17] [1] : memref<256xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
    %subview_2 = memref.subview %alloc[0] [%17] [1] : memref<256xi32> to memref<?xi32, strided<[1]>>
    %cast = memref.cast %subview_2 : memref<?xi32, strided<[1]>> to memref<?xi32>
    memref.copy %subview, %cast : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
    %20 = bufferization.to_tensor %alloc restrict writable : memref<256xi32>
    %21 = tensor.empty() : tensor<256xf32>
    %22 = scf.for %arg10 = %c0 to %c256 step %c1 iter_args(%arg11 = %21) -> (tensor<256xf32>) {
      %extracted = tensor.extract %20[%arg10] {DiscreteMemAccess} : tensor<256xi32>
      %31 = arith.extsi %extracted : i32 to i64
      %32 = arith.index_cast %31 : i64 to index
      %reinterpret_cast_7 = memref.reinterpret_cast %arg0 to offset: [%32], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
      %c0_8 = arith.constant 0 : index
      %33 = memref.load %reinterpret_cast_7[%c0_8] : memref<1xf32, strided<[1], offset: ?>>
      %inserted = tensor.insert %33 into %arg11[%arg10] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %cast_3 = tensor.cast %22 : tensor<256xf32> to tensor<256xf32>
    %23 = arith.select %10, %cast_3, %1 {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %24 = arith.index_cast %2 : i32 to index
    %reinterpret_cast_4 = memref.reinterpret_cast %arg2 to offset: [%24], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %25 = arith.index_cast %2 : i32 to index
    %c256_5 = arith.constant 256 : index
    %26 = arith.addi %c256_5, %25 : index
    %27 = arith.index_cast %arg3 : i32 to index
    %28 = arith.maxsi %25, %27 : index
    %29 = arith.minsi %26, %28 : index
    %30 = arith.subi %29, %25 : index
    %extracted_slice = tensor.extract_slice %23[0] [%30] [1] : tensor<256xf32> to tensor<?xf32>
    %subview_6 = memref.subview %reinterpret_cast_4[0] [%30] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_6 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After CSE (cse) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @gather(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<256xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256xf32>) -> tensor<256xf32>
    %c256_i32 = arith.constant 256 : i32
    %2 = arith.muli %arg7, %c256_i32 : i32
    %3 = tensor.empty() : tensor<256xi32>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%3 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %20 = linalg.index 0 : index
      %21 = arith.index_cast %20 : index to i32
      linalg.yield %21 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%2 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg3 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.index_cast %2 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%9], sizes: [256], strides: [1] : memref<?xi32> to memref<256xi32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xi32>
    %10 = arith.addi %c256, %9 : index
    %11 = arith.index_cast %arg3 : i32 to index
    %12 = arith.maxsi %9, %11 : index
    %13 = arith.minsi %10, %12 : index
    %14 = arith.subi %13, %9 : index
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %15 = arith.cmpi slt, %14, %c256 : index
    %16 = arith.ori %false, %15 : i1
    scf.if %16 {
      linalg.fill ins(%c0_i32 : i32) outs(%alloc : memref<256xi32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0] [%14] [1] : memref<256xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
    %subview_0 = memref.subview %alloc[0] [%14] [1] : memref<256xi32> to memref<?xi32, strided<[1]>>
    %cast = memref.cast %subview_0 : memref<?xi32, strided<[1]>> to memref<?xi32>
    memref.copy %subview, %cast : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
    %17 = bufferization.to_tensor %alloc restrict writable : memref<256xi32>
    %18 = scf.for %arg10 = %c0 to %c256 step %c1 iter_args(%arg11 = %0) -> (tensor<256xf32>) {
      %extracted = tensor.extract %17[%arg10] {DiscreteMemAccess} : tensor<256xi32>
      %20 = arith.extsi %extracted : i32 to i64
      %21 = arith.index_cast %20 : i64 to index
      %reinterpret_cast_4 = memref.reinterpret_cast %arg0 to offset: [%21], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
      %22 = memref.load %reinterpret_cast_4[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %inserted = tensor.insert %22 into %arg11[%arg10] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %cast_1 = tensor.cast %18 : tensor<256xf32> to tensor<256xf32>
    %19 = arith.select %8, %cast_1, %1 {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [%9], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %19[0] [%14] [1] : tensor<256xf32> to tensor<?xf32>
    %subview_3 = memref.subview %reinterpret_cast_2[0] [%14] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_3 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @gather(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<256xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256xf32>) -> tensor<256xf32>
    %c256_i32 = arith.constant 256 : i32
    %2 = arith.muli %arg7, %c256_i32 : i32
    %3 = tensor.empty() : tensor<256xi32>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%3 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %20 = linalg.index 0 : index
      %21 = arith.index_cast %20 : index to i32
      linalg.yield %21 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%2 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg3 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.index_cast %2 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%9], sizes: [256], strides: [1] : memref<?xi32> to memref<256xi32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xi32>
    %10 = arith.addi %c256, %9 : index
    %11 = arith.index_cast %arg3 : i32 to index
    %12 = arith.maxsi %9, %11 : index
    %13 = arith.minsi %10, %12 : index
    %14 = arith.subi %13, %9 : index
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %15 = arith.cmpi slt, %14, %c256 : index
    %16 = arith.ori %false, %15 : i1
    scf.if %16 {
      linalg.fill ins(%c0_i32 : i32) outs(%alloc : memref<256xi32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0] [%14] [1] : memref<256xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
    %subview_0 = memref.subview %alloc[0] [%14] [1] : memref<256xi32> to memref<?xi32, strided<[1]>>
    %cast = memref.cast %subview_0 : memref<?xi32, strided<[1]>> to memref<?xi32>
    memref.copy %subview, %cast : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32>
    %17 = bufferization.to_tensor %alloc restrict writable : memref<256xi32>
    %18 = scf.for %arg10 = %c0 to %c256 step %c1 iter_args(%arg11 = %0) -> (tensor<256xf32>) {
      %extracted = tensor.extract %17[%arg10] {DiscreteMemAccess} : tensor<256xi32>
      %20 = arith.extsi %extracted : i32 to i64
      %21 = arith.index_cast %20 : i64 to index
      %reinterpret_cast_4 = memref.reinterpret_cast %arg0 to offset: [%21], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
      %22 = memref.load %reinterpret_cast_4[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %inserted = tensor.insert %22 into %arg11[%arg10] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %cast_1 = tensor.cast %18 : tensor<256xf32> to tensor<256xf32>
    %19 = arith.select %8, %cast_1, %1 {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [%9], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %19[0] [%14] [1] : tensor<256xf32> to tensor<?xf32>
    %subview_3 = memref.subview %reinterpret_cast_2[0] [%14] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_3 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @gather(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0_i32 = arith.constant 0 : i32
    %c256_i32 = arith.constant 256 : i32
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<256xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256xf32>) -> tensor<256xf32>
    %2 = arith.muli %arg7, %c256_i32 : i32
    %3 = tensor.empty() : tensor<256xi32>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%3 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %19 = linalg.index 0 : index
      %20 = arith.index_cast %19 : index to i32
      linalg.yield %20 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%2 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg3 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.index_cast %2 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%9], sizes: [256], strides: [1] : memref<?xi32> to memref<256xi32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xi32>
    %10 = arith.addi %9, %c256 : index
    %11 = arith.index_cast %arg3 : i32 to index
    %12 = arith.maxsi %9, %11 : index
    %13 = arith.minsi %10, %12 : index
    %14 = arith.subi %13, %9 : index
    %15 = arith.cmpi slt, %14, %c256 : index
    scf.if %15 {
      linalg.fill ins(%c0_i32 : i32) outs(%alloc : memref<256xi32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0] [%14] [1] : memref<256xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
    %subview_0 = memref.subview %alloc[0] [%14] [1] : memref<256xi32> to memref<?xi32, strided<[1]>>
    memref.copy %subview, %subview_0 : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1]>>
    %16 = bufferization.to_tensor %alloc restrict writable : memref<256xi32>
    %17 = scf.for %arg10 = %c0 to %c256 step %c1 iter_args(%arg11 = %0) -> (tensor<256xf32>) {
      %extracted = tensor.extract %16[%arg10] {DiscreteMemAccess} : tensor<256xi32>
      %19 = arith.index_cast %extracted : i32 to index
      %reinterpret_cast_3 = memref.reinterpret_cast %arg0 to offset: [%19], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
      %20 = memref.load %reinterpret_cast_3[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %inserted = tensor.insert %20 into %arg11[%arg10] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %18 = arith.select %8, %17, %1 {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %reinterpret_cast_1 = memref.reinterpret_cast %arg2 to offset: [%9], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %18[0] [%14] [1] : tensor<256xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%14] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


<unknown>:0: warning: linalg.yield %arg12 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : f32
<unknown>:0: warning: linalg.yield %arg12 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : i32
<unknown>:0: warning: linalg.yield %arg12 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : i32
<unknown>:0: warning: linalg.yield %arg12 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : i32
// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @gather(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0_i32 = arith.constant 0 : i32
    %c256_i32 = arith.constant 256 : i32
    %c256 = arith.constant 256 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<256xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256xf32>) -> tensor<256xf32>
    %2 = arith.muli %arg9, %c256_i32 : i32
    %3 = tensor.empty() : tensor<256xi32>
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%3 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %19 = linalg.index 0 : index
      %20 = arith.index_cast %19 : index to i32
      linalg.yield %20 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%2 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg5 : i32) outs(%3 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.index_cast %2 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg3 to offset: [%9], sizes: [256], strides: [1] : memref<?xi32> to memref<256xi32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xi32>
    %10 = arith.addi %9, %c256 : index
    %11 = arith.index_cast %arg5 : i32 to index
    %12 = arith.maxsi %9, %11 : index
    %13 = arith.minsi %10, %12 : index
    %14 = arith.subi %13, %9 : index
    %15 = arith.cmpi slt, %14, %c256 : index
    scf.if %15 {
      linalg.fill ins(%c0_i32 : i32) outs(%alloc : memref<256xi32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0] [%14] [1] : memref<256xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1], offset: ?>>
    %subview_0 = memref.subview %alloc[0] [%14] [1] : memref<256xi32> to memref<?xi32, strided<[1]>>
    memref.copy %subview, %subview_0 : memref<?xi32, strided<[1], offset: ?>> to memref<?xi32, strided<[1]>>
    %16 = bufferization.to_tensor %alloc restrict writable : memref<256xi32>
    %17 = scf.for %arg12 = %c0 to %c256 step %c1 iter_args(%arg13 = %0) -> (tensor<256xf32>) {
      %extracted = tensor.extract %16[%arg12] {DiscreteMemAccess} : tensor<256xi32>
      %19 = arith.index_cast %extracted : i32 to index
      %reinterpret_cast_3 = memref.reinterpret_cast %arg2 to offset: [%19], sizes: [1], strides: [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
      %20 = memref.load %reinterpret_cast_3[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %inserted = tensor.insert %20 into %arg13[%arg12] : tensor<256xf32>
      scf.yield {DiscreteMemAccess} %inserted : tensor<256xf32>
    } {ExtractedLoadOrStore}
    %18 = arith.select %8, %17, %1 {DiscreteMemAccess} : tensor<256xi1>, tensor<256xf32>
    %reinterpret_cast_1 = memref.reinterpret_cast %arg4 to offset: [%9], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %18[0] [%14] [1] : tensor<256xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%14] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


