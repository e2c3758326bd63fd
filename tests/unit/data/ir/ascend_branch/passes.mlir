// -----// IR Dump Before DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLinalg (triton-to-linalg) //----- //
module {
  tt.func public @branch(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<1024xf32>
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.addptr %arg1, %0 : !tt.ptr<i32>, i32
    %8 = tt.load %7 : !tt.ptr<i32>
    %9 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %11 = tt.load %10, %6, %cst : tensor<1024x!tt.ptr<f32>>
    %12 = arith.cmpi sgt, %8, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<1024xf32>) {
      %16 = arith.mulf %11, %cst_1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %11, %cst_0 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  func.func @branch(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %cst_0 = arith.constant 2.000000e+00 : f32
    %2 = tensor.empty() : tensor<1024xf32>
    %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<1024xf32>) -> tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %4 = arith.muli %arg7, %c1024_i32 : i32
    %5 = arith.index_cast %arg7 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%5], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, strided<[1], offset: ?>>
    %c0 = arith.constant 0 : index
    %6 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %7 = arith.index_cast %4 : i32 to index
    %reinterpret_cast_1 = memref.reinterpret_cast %arg0 to offset: [%7], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<1024xf32>
    %8 = arith.index_cast %4 : i32 to index
    %c1024 = arith.constant 1024 : index
    %9 = arith.addi %c1024, %8 : index
    %10 = arith.index_cast %arg3 : i32 to index
    %11 = arith.maxsi %8, %10 : index
    %12 = arith.minsi %9, %11 : index
    %13 = arith.subi %12, %8 : index
    %cst_2 = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %c1024_3 = arith.constant 1024 : index
    %14 = arith.cmpi slt, %13, %c1024_3 : index
    %15 = arith.ori %false, %14 : i1
    scf.if %15 {
      linalg.fill ins(%cst_2 : f32) outs(%alloc : memref<1024xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_1[0] [%13] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_4 = memref.subview %alloc[0] [%13] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
    %cast = memref.cast %subview_4 : memref<?xf32, strided<[1]>> to memref<?xf32>
    memref.copy %subview, %cast : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    %16 = bufferization.to_tensor %alloc restrict writable : memref<1024xf32>
    %17 = arith.cmpi sgt, %6, %c0_i32 : i32
    %18 = scf.if %17 -> (tensor<1024xf32>) {
      %26 = arith.mulf %16, %3 : tensor<1024xf32>
      scf.yield %26 : tensor<1024xf32>
    } else {
      %26 = arith.subf %16, %1 : tensor<1024xf32>
      scf.yield %26 : tensor<1024xf32>
    }
    %19 = arith.index_cast %4 : i32 to index
    %reinterpret_cast_5 = memref.reinterpret_cast %arg2 to offset: [%19], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %20 = arith.index_cast %4 : i32 to index
    %c1024_6 = arith.constant 1024 : index
    %21 = arith.addi %c1024_6, %20 : index
    %22 = arith.index_cast %arg3 : i32 to index
    %23 = arith.maxsi %20, %22 : index
    %24 = arith.minsi %21, %23 : index
    %25 = arith.subi %24, %20 : index
    %extracted_slice = tensor.extract_slice %18[0] [%25] [1] : tensor<1024xf32> to tensor<?xf32>
    %subview_7 = memref.subview %reinterpret_cast_5[0] [%25] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_7 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  func.func @branch(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %cst_0 = arith.constant 2.000000e+00 : f32
    %2 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %3 = arith.muli %arg7, %c1024_i32 : i32
    %4 = arith.index_cast %arg7 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%4], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, strided<[1], offset: ?>>
    %c0 = arith.constant 0 : index
    %5 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %6 = arith.index_cast %3 : i32 to index
    %reinterpret_cast_1 = memref.reinterpret_cast %arg0 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<1024xf32>
    %c1024 = arith.constant 1024 : index
    %7 = arith.addi %c1024, %6 : index
    %8 = arith.index_cast %arg3 : i32 to index
    %9 = arith.maxsi %6, %8 : index
    %10 = arith.minsi %7, %9 : index
    %11 = arith.subi %10, %6 : index
    %cst_2 = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %12 = arith.cmpi slt, %11, %c1024 : index
    %13 = arith.ori %false, %12 : i1
    scf.if %13 {
      linalg.fill ins(%cst_2 : f32) outs(%alloc : memref<1024xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_1[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_3 = memref.subview %alloc[0] [%11] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
    %cast = memref.cast %subview_3 : memref<?xf32, strided<[1]>> to memref<?xf32>
    memref.copy %subview, %cast : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    %14 = bufferization.to_tensor %alloc restrict writable : memref<1024xf32>
    %15 = arith.cmpi sgt, %5, %c0_i32 : i32
    %16 = scf.if %15 -> (tensor<1024xf32>) {
      %17 = arith.mulf %14, %2 : tensor<1024xf32>
      scf.yield %17 : tensor<1024xf32>
    } else {
      %17 = arith.subf %14, %1 : tensor<1024xf32>
      scf.yield %17 : tensor<1024xf32>
    }
    %reinterpret_cast_4 = memref.reinterpret_cast %arg2 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %16[0] [%11] [1] : tensor<1024xf32> to tensor<?xf32>
    %subview_5 = memref.subview %reinterpret_cast_4[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_5 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  func.func @branch(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %cst_0 = arith.constant 2.000000e+00 : f32
    %2 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %3 = arith.muli %arg7, %c1024_i32 : i32
    %4 = arith.index_cast %arg7 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%4], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, strided<[1], offset: ?>>
    %c0 = arith.constant 0 : index
    %5 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %6 = arith.index_cast %3 : i32 to index
    %reinterpret_cast_1 = memref.reinterpret_cast %arg0 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<1024xf32>
    %c1024 = arith.constant 1024 : index
    %7 = arith.addi %c1024, %6 : index
    %8 = arith.index_cast %arg3 : i32 to index
    %9 = arith.maxsi %6, %8 : index
    %10 = arith.minsi %7, %9 : index
    %11 = arith.subi %10, %6 : index
    %cst_2 = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %12 = arith.cmpi slt, %11, %c1024 : index
    %13 = arith.ori %false, %12 : i1
    scf.if %13 {
      linalg.fill ins(%cst_2 : f32) outs(%alloc : memref<1024xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_1[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_3 = memref.subview %alloc[0] [%11] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
    %cast = memref.cast %subview_3 : memref<?xf32, strided<[1]>> to memref<?xf32>
    memref.copy %subview, %cast : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    %14 = bufferization.to_tensor %alloc restrict writable : memref<1024xf32>
    %15 = arith.cmpi sgt, %5, %c0_i32 : i32
    %16 = scf.if %15 -> (tensor<1024xf32>) {
      %17 = arith.mulf %14, %2 : tensor<1024xf32>
      scf.yield %17 : tensor<1024xf32>
    } else {
      %17 = arith.subf %14, %1 : tensor<1024xf32>
      scf.yield %17 : tensor<1024xf32>
    }
    %reinterpret_cast_4 = memref.reinterpret_cast %arg2 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %16[0] [%11] [1] : tensor<1024xf32> to tensor<?xf32>
    %subview_5 = memref.subview %reinterpret_cast_4[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_5 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  func.func @branch(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %c1024 = arith.constant 1024 : index
    %c0 = arith.constant 0 : index
    %c1024_i32 = arith.constant 1024 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %2 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %3 = arith.muli %arg7, %c1024_i32 : i32
    %4 = arith.index_cast %arg7 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [%4], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, strided<[1], offset: ?>>
    %5 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %6 = arith.index_cast %3 : i32 to index
    %reinterpret_cast_2 = memref.reinterpret_cast %arg0 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<1024xf32>
    %7 = arith.addi %6, %c1024 : index
    %8 = arith.index_cast %arg3 : i32 to index
    %9 = arith.maxsi %6, %8 : index
    %10 = arith.minsi %7, %9 : index
    %11 = arith.subi %10, %6 : index
    %12 = arith.cmpi slt, %11, %c1024 : index
    scf.if %12 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<1024xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_2[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_3 = memref.subview %alloc[0] [%11] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
    memref.copy %subview, %subview_3 : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1]>>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<1024xf32>
    %14 = arith.cmpi sgt, %5, %c0_i32 : i32
    %15 = scf.if %14 -> (tensor<1024xf32>) {
      %16 = arith.mulf %13, %2 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %13, %1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %reinterpret_cast_4 = memref.reinterpret_cast %arg2 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %15[0] [%11] [1] : tensor<1024xf32> to tensor<?xf32>
    %subview_5 = memref.subview %reinterpret_cast_4[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_5 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


<unknown>:0: warning: linalg.yield %arg12 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : f32
<unknown>:0: warning: linalg.yield %arg12 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : f32
<unknown>:0: warning: linalg.yield %arg12 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg12 : f32
// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //
module {
  func.func @branch(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xi32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %c1024 = arith.constant 1024 : index
    %c0 = arith.constant 0 : index
    %c1024_i32 = arith.constant 1024 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024xf32>
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %2 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1024xf32>) -> tensor<1024xf32>
    %3 = arith.muli %arg9, %c1024_i32 : i32
    %4 = arith.index_cast %arg9 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg3 to offset: [%4], sizes: [1], strides: [1] : memref<?xi32> to memref<1xi32, strided<[1], offset: ?>>
    %5 = memref.load %reinterpret_cast[%c0] : memref<1xi32, strided<[1], offset: ?>>
    %6 = arith.index_cast %3 : i32 to index
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<1024xf32>
    %7 = arith.addi %6, %c1024 : index
    %8 = arith.index_cast %arg5 : i32 to index
    %9 = arith.maxsi %6, %8 : index
    %10 = arith.minsi %7, %9 : index
    %11 = arith.subi %10, %6 : index
    %12 = arith.cmpi slt, %11, %c1024 : index
    scf.if %12 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<1024xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_2[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    %subview_3 = memref.subview %alloc[0] [%11] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
    memref.copy %subview, %subview_3 : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1]>>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<1024xf32>
    %14 = arith.cmpi sgt, %5, %c0_i32 : i32
    %15 = scf.if %14 -> (tensor<1024xf32>) {
      %16 = arith.mulf %13, %2 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    } else {
      %16 = arith.subf %13, %1 : tensor<1024xf32>
      scf.yield %16 : tensor<1024xf32>
    }
    %reinterpret_cast_4 = memref.reinterpret_cast %arg4 to offset: [%6], sizes: [1024], strides: [1] : memref<?xf32> to memref<1024xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %15[0] [%11] [1] : tensor<1024xf32> to tensor<?xf32>
    %subview_5 = memref.subview %reinterpret_cast_4[0] [%11] [1] : memref<1024xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_5 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


