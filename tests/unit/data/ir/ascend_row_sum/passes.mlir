// -----// IR Dump Before DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLinalg (triton-to-linalg) //----- //
module {
  tt.func public @row_sum(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<4x256xf32>
    %c4_i32 = arith.constant 4 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c4_i32 : i32
    %2 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %3 = tt.splat %1 : i32 -> tensor<4xi32>
    %4 = arith.addi %3, %2 : tensor<4xi32>
    %5 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %6 = tt.expand_dims %4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %7 = tt.splat %arg2 : i32 -> tensor<4x1xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<4x1xi32>
    %9 = tt.expand_dims %5 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %10 = tt.splat %arg3 : i32 -> tensor<1x256xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<1x256xi32>
    %12 = tt.broadcast %8 : tensor<4x1xi1> -> tensor<4x256xi1>
    %13 = tt.broadcast %11 : tensor<1x256xi1> -> tensor<4x256xi1>
    %14 = arith.andi %12, %13 : tensor<4x256xi1>
    %15 = tt.splat %arg4 : i32 -> tensor<4x1xi32>
    %16 = arith.muli %6, %15 : tensor<4x1xi32>
    %17 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x1x!tt.ptr<f32>>
    %18 = tt.addptr %17, %16 : tensor<4x1x!tt.ptr<f32>>, tensor<4x1xi32>
    %19 = tt.broadcast %18 : tensor<4x1x!tt.ptr<f32>> -> tensor<4x256x!tt.ptr<f32>>
    %20 = tt.broadcast %9 : tensor<1x256xi32> -> tensor<4x256xi32>
    %21 = tt.addptr %19, %20 : tensor<4x256x!tt.ptr<f32>>, tensor<4x256xi32>
    %22 = tt.load %21, %14, %cst : tensor<4x256x!tt.ptr<f32>>
    %23 = "tt.reduce"(%22) <{axis = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %28 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %28 : f32
    }) : (tensor<4x256xf32>) -> tensor<4xf32>
    %24 = tt.splat %arg2 : i32 -> tensor<4xi32>
    %25 = arith.cmpi slt, %4, %24 : tensor<4xi32>
    %26 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %27 = tt.addptr %26, %4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %27, %23, %25 : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
module {
  func.func @row_sum(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %arg8, %c4_i32 : i32
    %1 = arith.index_cast %0 : i32 to index
    %2 = arith.index_cast %arg4 : i32 to index
    %3 = arith.muli %1, %2 : index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%3], sizes: [4, 1], strides: [%2, 1] : memref<?xf32> to memref<4x1xf32, strided<[?, 1], offset: ?>>
    %4 = arith.index_cast %0 : i32 to index
    %5 = arith.index_cast %arg4 : i32 to index
    %6 = arith.muli %4, %5 : index
    %reinterpret_cast_0 = memref.reinterpret_cast %arg0 to offset: [%6], sizes: [4, 256], strides: [%5, 1] : memref<?xf32> to memref<4x256xf32, strided<[?, 1], offset: ?>>
    %alloc = memref.alloc() : memref<4x256xf32>
    %7 = arith.index_cast %0 : i32 to index
    %c4 = arith.constant 4 : index
    %8 = arith.addi %c4, %7 : index
    %9 = arith.index_cast %arg2 : i32 to index
    %10 = arith.maxsi %7, %9 : index
    %11 = arith.minsi %8, %10 : index
    %12 = arith.subi %11, %7 : index
    %13 = arith.index_cast %arg3 : i32 to index
    %c0 = arith.constant 0 : index
    %14 = arith.maxsi %c0, %13 : index
    %c256 = arith.constant 256 : index
    %15 = arith.minsi %c256, %14 : index
    %c4_1 = arith.constant 4 : index
    %16 = arith.minsi %12, %c4_1 : index
    %c256_2 = arith.constant 256 : index
    %17 = arith.minsi %c256_2, %15 : index
    %cst = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %c4_3 = arith.constant 4 : index
    %18 = arith.cmpi slt, %16, %c4_3 : index
    %19 = arith.ori %false, %18 : i1
    %c256_4 = arith.constant 256 : index
    %20 = arith.cmpi slt, %17, %c256_4 : index
    %21 = arith.ori %19, %20 : i1
    scf.if %21 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x256xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast_0[0, 0] [%16, %17] [1, 1] : memref<4x256xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %subview_5 = memref.subview %alloc[0, 0] [%16, %17] [1, 1] : memref<4x256xf32> to memref<?x?xf32, strided<[256, 1]>>
    %cast = memref.cast %subview_5 : memref<?x?xf32, strided<[256, 1]>> to memref<?x?xf32, #map>
    memref.copy %subview, %cast : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, #map>
    %22 = bufferization.to_tensor %alloc restrict writable : memref<4x256xf32>
    %cst_6 = arith.constant 0.000000e+00 : f32
    %23 = tensor.empty() : tensor<4xf32>
    %24 = linalg.fill ins(%cst_6 : f32) outs(%23 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%22 : tensor<4x256xf32>) outs(%24 : tensor<4xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %32 = arith.addf %in, %init : f32
        linalg.yield %32 : f32
      }
    %25 = arith.index_cast %0 : i32 to index
    %reinterpret_cast_7 = memref.reinterpret_cast %arg1 to offset: [%25], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %26 = arith.index_cast %0 : i32 to index
    %c4_8 = arith.constant 4 : index
    %27 = arith.addi %c4_8, %26 : index
    %28 = arith.index_cast %arg2 : i32 to index
    %29 = arith.maxsi %26, %28 : index
    %30 = arith.minsi %27, %29 : index
    %31 = arith.subi %30, %26 : index
    %extracted_slice = tensor.extract_slice %reduced[0] [%31] [1] : tensor<4xf32> to tensor<?xf32>
    %subview_9 = memref.subview %reinterpret_cast_7[0] [%31] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_9 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After CSE (cse) //----- //
#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
module {
  func.func @row_sum(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %arg8, %c4_i32 : i32
    %1 = arith.index_cast %0 : i32 to index
    %2 = arith.index_cast %arg4 : i32 to index
    %3 = arith.muli %1, %2 : index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%3], sizes: [4, 256], strides: [%2, 1] : memref<?xf32> to memref<4x256xf32, strided<[?, 1], offset: ?>>
    %alloc = memref.alloc() : memref<4x256xf32>
    %c4 = arith.constant 4 : index
    %4 = arith.addi %c4, %1 : index
    %5 = arith.index_cast %arg2 : i32 to index
    %6 = arith.maxsi %1, %5 : index
    %7 = arith.minsi %4, %6 : index
    %8 = arith.subi %7, %1 : index
    %9 = arith.index_cast %arg3 : i32 to index
    %c0 = arith.constant 0 : index
    %10 = arith.maxsi %c0, %9 : index
    %c256 = arith.constant 256 : index
    %11 = arith.minsi %c256, %10 : index
    %12 = arith.minsi %8, %c4 : index
    %13 = arith.minsi %c256, %11 : index
    %cst = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %14 = arith.cmpi slt, %12, %c4 : index
    %15 = arith.ori %false, %14 : i1
    %16 = arith.cmpi slt, %13, %c256 : index
    %17 = arith.ori %15, %16 : i1
    scf.if %17 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x256xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0, 0] [%12, %13] [1, 1] : memref<4x256xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %subview_0 = memref.subview %alloc[0, 0] [%12, %13] [1, 1] : memref<4x256xf32> to memref<?x?xf32, strided<[256, 1]>>
    %cast = memref.cast %subview_0 : memref<?x?xf32, strided<[256, 1]>> to memref<?x?xf32, #map>
    memref.copy %subview, %cast : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, #map>
    %18 = bufferization.to_tensor %alloc restrict writable : memref<4x256xf32>
    %19 = tensor.empty() : tensor<4xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%18 : tensor<4x256xf32>) outs(%20 : tensor<4xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %21 = arith.addf %in, %init : f32
        linalg.yield %21 : f32
      }
    %reinterpret_cast_1 = memref.reinterpret_cast %arg1 to offset: [%1], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %reduced[0] [%8] [1] : tensor<4xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%8] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
#map = affine_map<(d0, d1) -> (d0 * 256 + d1)>
module {
  func.func @row_sum(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %arg8, %c4_i32 : i32
    %1 = arith.index_cast %0 : i32 to index
    %2 = arith.index_cast %arg4 : i32 to index
    %3 = arith.muli %1, %2 : index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%3], sizes: [4, 256], strides: [%2, 1] : memref<?xf32> to memref<4x256xf32, strided<[?, 1], offset: ?>>
    %alloc = memref.alloc() : memref<4x256xf32>
    %c4 = arith.constant 4 : index
    %4 = arith.addi %c4, %1 : index
    %5 = arith.index_cast %arg2 : i32 to index
    %6 = arith.maxsi %1, %5 : index
    %7 = arith.minsi %4, %6 : index
    %8 = arith.subi %7, %1 : index
    %9 = arith.index_cast %arg3 : i32 to index
    %c0 = arith.constant 0 : index
    %10 = arith.maxsi %c0, %9 : index
    %c256 = arith.constant 256 : index
    %11 = arith.minsi %c256, %10 : index
    %12 = arith.minsi %8, %c4 : index
    %13 = arith.minsi %c256, %11 : index
    %cst = arith.constant 0.000000e+00 : f32
    %false = arith.constant false
    %14 = arith.cmpi slt, %12, %c4 : index
    %15 = arith.ori %false, %14 : i1
    %16 = arith.cmpi slt, %13, %c256 : index
    %17 = arith.ori %15, %16 : i1
    scf.if %17 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x256xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0, 0] [%12, %13] [1, 1] : memref<4x256xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %subview_0 = memref.subview %alloc[0, 0] [%12, %13] [1, 1] : memref<4x256xf32> to memref<?x?xf32, strided<[256, 1]>>
    %cast = memref.cast %subview_0 : memref<?x?xf32, strided<[256, 1]>> to memref<?x?xf32, #map>
    memref.copy %subview, %cast : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, #map>
    %18 = bufferization.to_tensor %alloc restrict writable : memref<4x256xf32>
    %19 = tensor.empty() : tensor<4xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%18 : tensor<4x256xf32>) outs(%20 : tensor<4xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %21 = arith.addf %in, %init : f32
        linalg.yield %21 : f32
      }
    %reinterpret_cast_1 = memref.reinterpret_cast %arg1 to offset: [%1], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %reduced[0] [%8] [1] : tensor<4xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%8] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  func.func @row_sum(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %c256 = arith.constant 256 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %arg8, %c4_i32 : i32
    %1 = arith.index_cast %0 : i32 to index
    %2 = arith.index_cast %arg4 : i32 to index
    %3 = arith.muli %1, %2 : index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%3], sizes: [4, 256], strides: [%2, 1] : memref<?xf32> to memref<4x256xf32, strided<[?, 1], offset: ?>>
    %alloc = memref.alloc() : memref<4x256xf32>
    %4 = arith.addi %1, %c4 : index
    %5 = arith.index_cast %arg2 : i32 to index
    %6 = arith.maxsi %1, %5 : index
    %7 = arith.minsi %4, %6 : index
    %8 = arith.subi %7, %1 : index
    %9 = arith.index_cast %arg3 : i32 to index
    %10 = arith.maxsi %9, %c0 : index
    %11 = arith.minsi %10, %c256 : index
    %12 = arith.minsi %8, %c4 : index
    %13 = arith.minsi %11, %c256 : index
    %14 = arith.cmpi slt, %12, %c4 : index
    %15 = arith.cmpi slt, %13, %c256 : index
    %16 = arith.ori %14, %15 : i1
    scf.if %16 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x256xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0, 0] [%12, %13] [1, 1] : memref<4x256xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %subview_0 = memref.subview %alloc[0, 0] [%12, %13] [1, 1] : memref<4x256xf32> to memref<?x?xf32, strided<[256, 1]>>
    memref.copy %subview, %subview_0 : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[256, 1]>>
    %17 = bufferization.to_tensor %alloc restrict writable : memref<4x256xf32>
    %18 = tensor.empty() : tensor<4xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%17 : tensor<4x256xf32>) outs(%19 : tensor<4xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %20 = arith.addf %in, %init : f32
        linalg.yield %20 : f32
      }
    %reinterpret_cast_1 = memref.reinterpret_cast %arg1 to offset: [%1], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %reduced[0] [%8] [1] : tensor<4xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%8] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


<unknown>:0: warning: linalg.yield %arg13 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg13 : f32
<unknown>:0: warning: linalg.yield %arg13 : f32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg13 : f32
// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //
module {
  func.func @row_sum(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 1 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32, %arg12: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %cst = arith.constant 0.000000e+00 : f32
    %c256 = arith.constant 256 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c4_i32 = arith.constant 4 : i32
    %0 = arith.muli %arg10, %c4_i32 : i32
    %1 = arith.index_cast %0 : i32 to index
    %2 = arith.index_cast %arg6 : i32 to index
    %3 = arith.muli %1, %2 : index
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [%3], sizes: [4, 256], strides: [%2, 1] : memref<?xf32> to memref<4x256xf32, strided<[?, 1], offset: ?>>
    %alloc = memref.alloc() : memref<4x256xf32>
    %4 = arith.addi %1, %c4 : index
    %5 = arith.index_cast %arg4 : i32 to index
    %6 = arith.maxsi %1, %5 : index
    %7 = arith.minsi %4, %6 : index
    %8 = arith.subi %7, %1 : index
    %9 = arith.index_cast %arg5 : i32 to index
    %10 = arith.maxsi %9, %c0 : index
    %11 = arith.minsi %10, %c256 : index
    %12 = arith.minsi %8, %c4 : index
    %13 = arith.minsi %11, %c256 : index
    %14 = arith.cmpi slt, %12, %c4 : index
    %15 = arith.cmpi slt, %13, %c256 : index
    %16 = arith.ori %14, %15 : i1
    scf.if %16 {
      linalg.fill ins(%cst : f32) outs(%alloc : memref<4x256xf32>)
    } {hivm.unlikely_condition}
    %subview = memref.subview %reinterpret_cast[0, 0] [%12, %13] [1, 1] : memref<4x256xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %subview_0 = memref.subview %alloc[0, 0] [%12, %13] [1, 1] : memref<4x256xf32> to memref<?x?xf32, strided<[256, 1]>>
    memref.copy %subview, %subview_0 : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[256, 1]>>
    %17 = bufferization.to_tensor %alloc restrict writable : memref<4x256xf32>
    %18 = tensor.empty() : tensor<4xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<4xf32>) -> tensor<4xf32>
    %reduced = linalg.reduce ins(%17 : tensor<4x256xf32>) outs(%19 : tensor<4xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %20 = arith.addf %in, %init : f32
        linalg.yield %20 : f32
      }
    %reinterpret_cast_1 = memref.reinterpret_cast %arg3 to offset: [%1], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %extracted_slice = tensor.extract_slice %reduced[0] [%8] [1] : tensor<4xf32> to tensor<?xf32>
    %subview_2 = memref.subview %reinterpret_cast_1[0] [%8] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
    bufferization.materialize_in_destination %extracted_slice in writable %subview_2 : (tensor<?xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


