// -----// IR Dump Before DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLinalg (triton-to-linalg) //----- //
module {
  tt.func public @dot_tile(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %cst_0 = arith.constant dense<32> : tensor<32x1xi32>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = arith.muli %1, %cst_0 : tensor<32x1xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %4 = tt.addptr %3, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %5 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = tt.broadcast %4 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %7 = tt.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = tt.addptr %6, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %9 = tt.load %8 : tensor<32x32x!tt.ptr<f16>>
    %10 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
    %11 = tt.addptr %10, %2 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %12 = tt.broadcast %11 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x32x!tt.ptr<f16>>
    %13 = tt.addptr %12, %7 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %14 = tt.load %13 : tensor<32x32x!tt.ptr<f16>>
    %15 = tt.dot %9, %14, %cst : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %16 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %17 = tt.addptr %16, %2 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %18 = tt.broadcast %17 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %19 = tt.addptr %18, %7 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    tt.store %19, %15 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  func.func @dot_tile(%arg0: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 1], strides: [32, 1] : memref<?xf16> to memref<32x1xf16, strided<[32, 1]>>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_0, %alloc : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %2 = bufferization.to_tensor %alloc restrict writable : memref<32x32xf16>
    %reinterpret_cast_1 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [32, 1], strides: [32, 1] : memref<?xf16> to memref<32x1xf16, strided<[32, 1]>>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc_3 = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_2, %alloc_3 : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %3 = bufferization.to_tensor %alloc_3 restrict writable : memref<32x32xf16>
    %4 = linalg.matmul {input_precison = "ieee"} ins(%2, %3 : tensor<32x32xf16>, tensor<32x32xf16>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast_4 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 1], strides: [32, 1] : memref<?xf32> to memref<32x1xf32, strided<[32, 1]>>
    %reinterpret_cast_5 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf32> to memref<32x32xf32, strided<[32, 1]>>
    bufferization.materialize_in_destination %4 in writable %reinterpret_cast_5 : (tensor<32x32xf32>, memref<32x32xf32, strided<[32, 1]>>) -> ()
    return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  func.func @dot_tile(%arg0: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast, %alloc : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %2 = bufferization.to_tensor %alloc restrict writable : memref<32x32xf16>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc_1 = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %3 = bufferization.to_tensor %alloc_1 restrict writable : memref<32x32xf16>
    %4 = linalg.matmul {input_precison = "ieee"} ins(%2, %3 : tensor<32x32xf16>, tensor<32x32xf16>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf32> to memref<32x32xf32, strided<[32, 1]>>
    bufferization.materialize_in_destination %4 in writable %reinterpret_cast_2 : (tensor<32x32xf32>, memref<32x32xf32, strided<[32, 1]>>) -> ()
    return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  func.func @dot_tile(%arg0: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast, %alloc : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %2 = bufferization.to_tensor %alloc restrict writable : memref<32x32xf16>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc_1 = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %3 = bufferization.to_tensor %alloc_1 restrict writable : memref<32x32xf16>
    %4 = linalg.matmul {input_precison = "ieee"} ins(%2, %3 : tensor<32x32xf16>, tensor<32x32xf16>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf32> to memref<32x32xf32, strided<[32, 1]>>
    bufferization.materialize_in_destination %4 in writable %reinterpret_cast_2 : (tensor<32x32xf32>, memref<32x32xf32, strided<[32, 1]>>) -> ()
    return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  func.func @dot_tile(%arg0: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast, %alloc : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %2 = bufferization.to_tensor %alloc restrict writable : memref<32x32xf16>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc_1 = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %3 = bufferization.to_tensor %alloc_1 restrict writable : memref<32x32xf16>
    %4 = linalg.matmul {input_precison = "ieee"} ins(%2, %3 : tensor<32x32xf16>, tensor<32x32xf16>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf32> to memref<32x32xf32, strided<[32, 1]>>
    bufferization.materialize_in_destination %4 in writable %reinterpret_cast_2 : (tensor<32x32xf32>, memref<32x32xf32, strided<[32, 1]>>) -> ()
    return
  }
}


<unknown>:0: warning: linalg.yield %arg11 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg11 : f32
<unknown>:0: warning: %5 = arith.extf %arg11 : f16 to f32 and its users all have no location!
<unknown>:0: note: see current operation: %5 = arith.extf %arg11 : f16 to f32
<unknown>:0: warning: %6 = arith.extf %arg12 : f16 to f32 and its users all have no location!
<unknown>:0: note: see current operation: %6 = arith.extf %arg12 : f16 to f32
<unknown>:0: warning: %7 = arith.mulf %5, %6 : f32 and its users all have no location!
<unknown>:0: note: see current operation: %7 = arith.mulf %5, %6 : f32
<unknown>:0: warning: %8 = arith.addf %arg13, %7 : f32 and its users all have no location!
<unknown>:0: note: see current operation: %8 = arith.addf %arg13, %7 : f32
<unknown>:0: warning: linalg.yield %8 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %8 : f32
// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //
module {
  func.func @dot_tile(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf16> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg4: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "mix", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x32xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast, %alloc : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %2 = bufferization.to_tensor %alloc restrict writable : memref<32x32xf16>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg3 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf16> to memref<32x32xf16, strided<[32, 1]>>
    %alloc_1 = memref.alloc() : memref<32x32xf16>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16>
    %3 = bufferization.to_tensor %alloc_1 restrict writable : memref<32x32xf16>
    %4 = linalg.matmul {input_precison = "ieee"} ins(%2, %3 : tensor<32x32xf16>, tensor<32x32xf16>) outs(%1 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %reinterpret_cast_2 = memref.reinterpret_cast %arg4 to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xf32> to memref<32x32xf32, strided<[32, 1]>>
    bufferization.materialize_in_destination %4 in writable %reinterpret_cast_2 : (tensor<32x32xf32>, memref<32x32xf32, strided<[32, 1]>>) -> ()
    return
  }
}


