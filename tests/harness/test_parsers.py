"""ncu and msprof parsers on sample files (tests/harness/data, written from the documented
formats; see data/README.md)."""
import os

import pytest

from conftest import DATA

from kharness.parsers import parse_msprof_csv, parse_ncu_csv, parse_number, summarize_msprof


def read(name):
    return open(os.path.join(DATA, name)).read()


def test_parse_number():
    assert parse_number("1,234.5") == 1234.5
    assert parse_number("112,345") == 112345
    assert parse_number("n/a") is None and parse_number("") is None and parse_number("N/A") is None
    assert parse_number("(128, 1, 1)") is None


def test_ncu_details_csv():
    launches = parse_ncu_csv(read("ncu_details.csv"))
    assert [k["kernel"] for k in launches] == ["add_kernel", "matmul_kernel"]
    add = launches[0]
    assert add["block"] == "(128, 1, 1)" and add["cc"] == "9.0"
    s = add["summary"]
    assert s["duration_us"] == pytest.approx(64.13)
    assert s["dram_throughput_pct"] == pytest.approx(88.41)
    assert s["memory_throughput_pct"] == pytest.approx(88.41)
    assert s["sm_throughput_pct"] == pytest.approx(14.93)
    assert s["achieved_occupancy_pct"] == pytest.approx(81.37)
    assert s["theoretical_occupancy_pct"] == 100
    assert s["registers_per_thread"] == 14
    assert s["grid_size"] == 131072
    assert s["memory_throughput_gbps"] == pytest.approx(4190.0)
    assert s["dram_bytes"] == pytest.approx((134.22 + 67.11) * 1e6)
    assert s["bound"] == "memory"
    assert {r["rule"] for r in add["rules"]} == {"SOLBottleneck", "MemoryCacheAccessPattern"}
    mm = launches[1]["summary"]
    assert mm["duration_us"] == pytest.approx(4.512)       # "4,512" ns
    assert mm["bound"] == "compute"
    assert "achieved_occupancy_pct" not in mm               # "n/a"
    assert mm["registers_per_thread"] == 128


def test_ncu_raw_metric_csv_without_sections():
    text = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream",'
            '"Section Name","Metric Name","Metric Unit","Metric Value"\n'
            '"3","1","p","h","k","t","1","7","","gpu__time_duration.sum","nsecond","2,000"\n'
            '"3","1","p","h","k","t","1","7","","dram__throughput.avg.pct_of_peak_sustained_elapsed","%","20.5"\n'
            '"3","1","p","h","k","t","1","7","","sm__throughput.avg.pct_of_peak_sustained_elapsed","%","10"\n')
    [k] = parse_ncu_csv(text)
    assert k["summary"]["duration_us"] == pytest.approx(2.0)
    assert k["summary"]["bound"] == "latency"


def test_ncu_garbage():
    assert parse_ncu_csv("==PROF== nothing profiled\n") == []


def test_msprof_pipe_utilization_vector():
    rows = parse_msprof_csv(read("msprof_PipeUtilization.csv"))
    assert len(rows) == 4 and rows[0]["sub_block_id"] == "vector0"
    basic = parse_msprof_csv(read("msprof_OpBasicInfo.csv"))
    s = summarize_msprof(rows, basic)
    assert s["blocks"] == 4
    assert s["aiv_time_us_max"] == pytest.approx(41.60)
    assert s["ratios"]["aiv_scalar_ratio"] == pytest.approx((0.607 + 0.605 + 0.603 + 0.608) / 4)
    assert s["ratios"]["aiv_vec_ratio"] < 0.1
    assert s["bound"] == "no dominant pipe" and "SCALAR" in s["bound_reason"]
    assert s["basic"]["Task Duration(us)"] == pytest.approx(43.18)
    assert s["block_dim"] == 48


def test_msprof_cube_bound():
    s = summarize_msprof(parse_msprof_csv(read("msprof_PipeUtilization_cube.csv")))
    assert s["bound"] == "CUBE BOUND"
    assert s["aic_time_us_mean"] == pytest.approx(120.15)


def test_msprof_op_summary_mte2_bound():
    rows = parse_msprof_csv(read("msprof_op_summary.csv"))
    assert rows[0]["Op Name"] == "add_kernel" and rows[0]["aicore_time(us)"] == "N/A"
    s = summarize_msprof(op_summary_rows=rows)
    assert s["op_summary"]["Task Duration(us)"] == pytest.approx(8.71)
    assert s["bound"] == "MTE2 BOUND"


def test_ncu_real_h200_capture():
    """A real ncu capture from an H200 (see data/README.md)."""
    [k] = parse_ncu_csv(read("ncu_h200_add_kernel.csv"))
    s = k["summary"]
    assert k["kernel"] == "add_kernel" and k["grid"] == "(131072, 1, 1)"
    assert s["dram_bytes_read"] == 134222848 and s["dram_bytes_write"] == 55920896
    assert 10 < s["duration_us"] < 1000
    assert 0 < s["dram_throughput_pct"] <= 100 and 0 < s["sm_throughput_pct"] <= 100
    assert 0 < s["achieved_occupancy_pct"] <= 100 and s["registers_per_thread"] > 0
    assert s["block_size"] == 128 and s["grid_size"] == 131072
    assert s["bound"] in ("memory", "latency", "balanced", "compute")


def test_ttgir_max_elems() -> None:
    """The largest tensor or shared-memory buffer a TTGIR names (a sweep candidate's
    max_tensor_elems fact, the worker's tile estimate for the next round)."""
    from kharness.sweep import ttgir_max_elems
    ttgir = ('%0 = tt.load %p, %m : tensor<4x64x!tt.ptr<f16>, #blocked>\n'
             '%1 = arith.extf %0 : tensor<4x64xf16, #blocked> to tensor<4x64xf32, #blocked>\n'
             '%2 = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>\n'
             '%3 = tt.splat %n : i32 -> tensor<1024xi32, #blocked1>\n')
    assert ttgir_max_elems(ttgir) == 2 * 128 * 64
    assert ttgir_max_elems("%0 = arith.constant 1 : i32") is None
    assert ttgir_max_elems(None) is None and ttgir_max_elems("") is None
