//! Sharded runs on a cluster, against one process. `tests/cluster/slurm.sh` starts a one-node
//! Slurm cluster on this machine, runs a `coe batch` once as one process and once as a job array
//! of 4 shards submitted by `deploy/slurm/submit` with its merge job, resubmits one shard cut
//! short as after a lost node, and checks each time that the merged file is the single run's
//! apart from the solve times. `tests/cluster/parallel.sh` does the same with
//! `deploy/parallel/run` (GNU parallel) on this machine, a failed shard run again alone. Each
//! test runs its script on the binary just built and passes when the script does.
//!
//! Ignored by default: the Slurm test needs root (it starts slurmd), and both install Debian's
//! `slurm-wlm`, `munge` or `parallel` when missing. `.ci/run` runs them, one at a time:
//! `cargo test --release --test cluster_slurm -- --ignored --nocapture --test-threads=1`.

use std::process::Command;

/// Runs `bash tests/cluster/SCRIPT` on the binary just built, printing its output; it must exit
/// 0 and say PASS.
fn script_passes(script: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/tests/cluster/{script}"))
        .arg(env!("CARGO_BIN_EXE_signalbox"))
        .current_dir(root)
        .output()
        .expect("bash runs the script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "tests/cluster/{script}: {}\n{stderr}", out.status);
    assert!(stdout.contains("PASS"), "tests/cluster/{script} exited 0 without passing:\n{stdout}");
}

#[test]
#[ignore = "needs root and a local Slurm (installed from Debian when missing); .ci/run runs it"]
fn a_slurm_job_array_of_shards_and_its_merge_give_the_single_runs_file() {
    script_passes("slurm.sh");
}

#[test]
#[ignore = "needs GNU parallel (installed from Debian when missing, as root); .ci/run runs it"]
fn shards_run_by_gnu_parallel_and_merged_give_the_single_runs_file() {
    script_passes("parallel.sh");
}
