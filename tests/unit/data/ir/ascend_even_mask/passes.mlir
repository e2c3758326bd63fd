// -----// IR Dump Before DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11, %9, %cst : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %14, %12, %9 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After DiscreteMaskAccessConversion (discrete-mask-access-conversion) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToAnnotation (triton-to-annotation) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %cst_0 = arith.constant dense<0> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_1 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst_0 : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = arith.select %9, %12, %cst : tensor<256xi1>, tensor<256xf32>
    %14 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %16 = tt.load %15 : tensor<256x!tt.ptr<f32>>
    %17 = arith.select %9, %13, %16 : tensor<256xi1>, tensor<256xf32>
    tt.store %15, %17 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToUnstructure (triton-to-unstructure) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHIVM (triton-to-hivm) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToHFusion (triton-to-hfusion) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After TritonToLLVM (triton-to-llvm) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After CSE (cse) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump After BubbleUpOperation (bubble-up-operation) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before TritonToLinalg (triton-to-linalg) //----- //
module {
  tt.func public @even_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<2> : tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = arith.remsi %4, %cst_0 : tensor<256xi32>
    %8 = arith.cmpi eq, %7, %cst : tensor<256xi32>
    %9 = arith.andi %6, %8 : tensor<256xi1>
    %10 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %12 = tt.load %11 : tensor<256x!tt.ptr<f32>>
    %13 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %14 = tt.addptr %13, %4 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %15 = tt.load %14 : tensor<256x!tt.ptr<f32>>
    %16 = arith.select %9, %12, %15 : tensor<256xi1>, tensor<256xf32>
    tt.store %14, %16 {DiscreteMask} : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}


// -----// IR Dump Before CSE (cse) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @even_mask(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 2 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<256xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %c2_i32 = arith.constant 2 : i32
    %2 = tensor.empty() : tensor<256xi32>
    %3 = linalg.fill ins(%c2_i32 : i32) outs(%2 : tensor<256xi32>) -> tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %4 = arith.muli %arg6, %c256_i32 : i32
    %5 = tensor.empty() : tensor<256xi32>
    %6 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%5 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %21 = linalg.index 0 : index
      %22 = arith.index_cast %21 : index to i32
      linalg.yield %22 : i32
    } -> tensor<256xi32>
    %7 = tensor.empty() : tensor<256xi32>
    %8 = linalg.fill ins(%4 : i32) outs(%7 : tensor<256xi32>) -> tensor<256xi32>
    %9 = arith.addi %8, %6 : tensor<256xi32>
    %10 = tensor.empty() : tensor<256xi32>
    %11 = linalg.fill ins(%arg2 : i32) outs(%10 : tensor<256xi32>) -> tensor<256xi32>
    %12 = arith.cmpi slt, %9, %11 : tensor<256xi32>
    %13 = arith.remsi %9, %3 : tensor<256xi32>
    %14 = arith.cmpi eq, %13, %1 : tensor<256xi32>
    %15 = arith.andi %12, %14 : tensor<256xi1>
    %16 = arith.index_cast %4 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%16], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast, %alloc : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %17 = bufferization.to_tensor %alloc restrict writable : memref<256xf32>
    %18 = arith.index_cast %4 : i32 to index
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [%18], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc_1 = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %19 = bufferization.to_tensor %alloc_1 restrict writable : memref<256xf32>
    %20 = arith.select %15, %17, %19 : tensor<256xi1>, tensor<256xf32>
    bufferization.materialize_in_destination %20 in writable %reinterpret_cast_0 : (tensor<256xf32>, memref<256xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After CSE (cse) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @even_mask(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 2 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<256xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %c2_i32 = arith.constant 2 : i32
    %2 = linalg.fill ins(%c2_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %3 = arith.muli %arg6, %c256_i32 : i32
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %16 = linalg.index 0 : index
      %17 = arith.index_cast %16 : index to i32
      linalg.yield %17 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%3 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg2 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.remsi %6, %2 : tensor<256xi32>
    %10 = arith.cmpi eq, %9, %1 : tensor<256xi32>
    %11 = arith.andi %8, %10 : tensor<256xi1>
    %12 = arith.index_cast %3 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast, %alloc : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<256xf32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc_1 = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %14 = bufferization.to_tensor %alloc_1 restrict writable : memref<256xf32>
    %15 = arith.select %11, %13, %14 : tensor<256xi1>, tensor<256xf32>
    bufferization.materialize_in_destination %15 in writable %reinterpret_cast_0 : (tensor<256xf32>, memref<256xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @even_mask(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 2 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<256xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %c2_i32 = arith.constant 2 : i32
    %2 = linalg.fill ins(%c2_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %c256_i32 = arith.constant 256 : i32
    %3 = arith.muli %arg6, %c256_i32 : i32
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %16 = linalg.index 0 : index
      %17 = arith.index_cast %16 : index to i32
      linalg.yield %17 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%3 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg2 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.remsi %6, %2 : tensor<256xi32>
    %10 = arith.cmpi eq, %9, %1 : tensor<256xi32>
    %11 = arith.andi %8, %10 : tensor<256xi1>
    %12 = arith.index_cast %3 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast, %alloc : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<256xf32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc_1 = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %14 = bufferization.to_tensor %alloc_1 restrict writable : memref<256xf32>
    %15 = arith.select %11, %13, %14 : tensor<256xi1>, tensor<256xf32>
    bufferization.materialize_in_destination %15 in writable %reinterpret_cast_0 : (tensor<256xf32>, memref<256xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


// -----// IR Dump After Canonicalizer (canonicalize) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @even_mask(%arg0: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg1: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 2 : i32}, %arg2: i32 {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c256_i32 = arith.constant 256 : i32
    %c2_i32 = arith.constant 2 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<256xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %2 = linalg.fill ins(%c2_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %3 = arith.muli %arg6, %c256_i32 : i32
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %16 = linalg.index 0 : index
      %17 = arith.index_cast %16 : index to i32
      linalg.yield %17 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%3 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg2 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.remsi %6, %2 : tensor<256xi32>
    %10 = arith.cmpi eq, %9, %1 : tensor<256xi32>
    %11 = arith.andi %8, %10 : tensor<256xi1>
    %12 = arith.index_cast %3 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast, %alloc : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<256xf32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg1 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc_1 = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %14 = bufferization.to_tensor %alloc_1 restrict writable : memref<256xf32>
    %15 = arith.select %11, %13, %14 : tensor<256xi1>, tensor<256xf32>
    bufferization.materialize_in_destination %15 in writable %reinterpret_cast_0 : (tensor<256xf32>, memref<256xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


<unknown>:0: warning: linalg.yield %arg11 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg11 : i32
<unknown>:0: warning: linalg.yield %arg11 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg11 : i32
<unknown>:0: warning: linalg.yield %arg11 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg11 : i32
<unknown>:0: warning: linalg.yield %arg11 : i32 and its users all have no location!
<unknown>:0: note: see current operation: linalg.yield %arg11 : i32
// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //
#map = affine_map<(d0) -> (d0)>
module {
  func.func @even_mask(%arg0: memref<?xi8>, %arg1: memref<?xi8>, %arg2: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 0 : i32}, %arg3: memref<?xf32> {tt.divisibility = 16 : i32, tt.tensor_kind = 2 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32) attributes {SyncBlockLockArgIdx = 0 : i64, WorkspaceArgIdx = 1 : i64, global_kernel = "local", mix_mode = "aiv", parallel_mode = "simd"} {
    %c256_i32 = arith.constant 256 : i32
    %c2_i32 = arith.constant 2 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<256xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %2 = linalg.fill ins(%c2_i32 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %3 = arith.muli %arg8, %c256_i32 : i32
    %4 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<256xi32>) {
    ^bb0(%out: i32):
      %16 = linalg.index 0 : index
      %17 = arith.index_cast %16 : index to i32
      linalg.yield %17 : i32
    } -> tensor<256xi32>
    %5 = linalg.fill ins(%3 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %6 = arith.addi %5, %4 : tensor<256xi32>
    %7 = linalg.fill ins(%arg4 : i32) outs(%0 : tensor<256xi32>) -> tensor<256xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<256xi32>
    %9 = arith.remsi %6, %2 : tensor<256xi32>
    %10 = arith.cmpi eq, %9, %1 : tensor<256xi32>
    %11 = arith.andi %8, %10 : tensor<256xi1>
    %12 = arith.index_cast %3 : i32 to index
    %reinterpret_cast = memref.reinterpret_cast %arg2 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast, %alloc : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %13 = bufferization.to_tensor %alloc restrict writable : memref<256xf32>
    %reinterpret_cast_0 = memref.reinterpret_cast %arg3 to offset: [%12], sizes: [256], strides: [1] : memref<?xf32> to memref<256xf32, strided<[1], offset: ?>>
    %alloc_1 = memref.alloc() : memref<256xf32>
    memref.copy %reinterpret_cast_0, %alloc_1 : memref<256xf32, strided<[1], offset: ?>> to memref<256xf32>
    %14 = bufferization.to_tensor %alloc_1 restrict writable : memref<256xf32>
    %15 = arith.select %11, %13, %14 : tensor<256xi1>, tensor<256xf32>
    bufferization.materialize_in_destination %15 in writable %reinterpret_cast_0 : (tensor<256xf32>, memref<256xf32, strided<[1], offset: ?>>) -> ()
    return
  }
}


