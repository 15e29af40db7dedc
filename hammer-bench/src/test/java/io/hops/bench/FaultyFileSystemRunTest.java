package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code hops bench} against a file system that throws, returns false and hangs: every error is a
 * failure of its operation, a hung thread is given up after the grace period, and the run ends with
 * its reports written.
 */
class FaultyFileSystemRunTest {
  @TempDir Path dir;

  private int bench(ByteArrayOutputStream printed, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--fs",
            "faulty:///",
            "--fs-name",
            "faulty",
            "--client-processes",
            "0",
            "--threads",
            "2",
            "--dirs-per-thread",
            "3",
            "--files-per-dir",
            "2",
            "--warmup",
            "0",
            "--grace",
            "1",
            "-D",
            "fs.faulty.impl=" + FaultyFileSystem.class.getName(),
            "-D",
            "fs.faulty.impl.disable.cache=true",
            "--out",
            dir.toString()));
    return new CommandLine(new BenchCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)))
        .execute(all.toArray(String[]::new));
  }

  @Test
  void errorsAreCountedAsFailuresOfTheirOperation() throws Exception {
    Path mix = dir.resolve("failing.properties");
    Files.writeString(
        mix, "stat_file=40\nls_dir=20\ncreate_file=20\nrename_file=10\ndelete_file=10\n");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    int rc =
        assertTimeoutPreemptively(
            Duration.ofSeconds(60),
            () ->
                bench(
                    printed,
                    "--workload",
                    mix.toString(),
                    "--duration",
                    "1",
                    "--op-duration",
                    "0"));

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(rc).as(out).isZero();
    assertThat(out)
        .contains("stat_file failed")
        .contains("FileNotFoundException: getFileStatus: injected")
        .contains("IllegalStateException: listStatus: injected runtime error")
        .contains("IOException: rename_file returned false")
        .contains("IOException: delete: injected");
    String json = Files.readString(dir.resolve("summary.json"));
    assertThat(json).contains("\"failures\"").contains("\"create_file\"");
    assertThat(Files.readString(dir.resolve("results.csv")))
        .containsPattern("faulty,mix,failing,create_file,[0-9.]+,[1-9][0-9]*,0,");
    assertThat(dir.resolve("throughput.png")).isNotEmptyFile();
  }

  @Test
  void aHungOperationIsAFailureAndTheRunStillEnds() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();

    int rc =
        assertTimeoutPreemptively(
            Duration.ofSeconds(FaultyFileSystem.HANG_SECONDS),
            () ->
                bench(
                    printed,
                    "--workload",
                    "raw:create_file,read_file,stat_dir",
                    "--duration",
                    "1"));

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(rc).as(out).isZero();
    assertThat(out)
        .contains("read_file failed 2 times: did not return within 1000 ms after the phase ended")
        .contains("2 thread(s) stuck and left out");
    String json = Files.readString(dir.resolve("summary.json"));
    assertThat(json).contains("\"stuckThreads\": 2");
  }
}
