// The CPU accounting of the CPU clock (referee/engine/cpu_time.h, docs/PROCESSES.md "CPU time"): a
// process that burns N ms of CPU is charged about N ms, one that sleeps about nothing, from a control
// group's counter and from the per-thread scheduler statistics alike.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "referee/engine/control_groups.h"
#include "referee/engine/cpu_time.h"
#include "referee/system/temp_folder.h"

namespace kalah {
namespace {

using namespace std::chrono_literals;

double thread_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Spins until this thread has used `ms` of CPU.
void burn(double ms) {
  const double until = thread_cpu_ms() + ms;
  volatile unsigned sink = 0;
  while (thread_cpu_ms() < until)
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<unsigned>(i);
}

// What the child does once told to go.
enum class Work { Burn, Sleep, BurnInGrandchild };

// A child process that waits for a byte, does its work, reports with a byte and stays alive (its time is
// still counted) until its input closes.
class Child {
 public:
  Child(Work work, double ms, const std::string& procs_file = {}) {
    int to_child[2], from_child[2];
    if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(to_child[1]);
      ::close(from_child[0]);
      if (!procs_file.empty()) {
        const int fd = ::open(procs_file.c_str(), O_WRONLY);
        if (fd < 0 || ::write(fd, "0", 1) != 1) ::_exit(3);
        ::close(fd);
      }
      if (::write(from_child[1], "r", 1) != 1) ::_exit(4);
      char c;
      if (::read(to_child[0], &c, 1) != 1) ::_exit(5);
      if (work == Work::Burn) burn(ms);
      if (work == Work::Sleep) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
      if (work == Work::BurnInGrandchild) {
        const pid_t grandchild = ::fork();
        if (grandchild == 0) {
          burn(ms);
          if (::write(from_child[1], "d", 1) != 1) ::_exit(6);
          while (::read(to_child[0], &c, 1) > 0) {
          }
          ::_exit(0);
        }
      } else if (::write(from_child[1], "d", 1) != 1) {
        ::_exit(6);
      }
      while (::read(to_child[0], &c, 1) > 0) {
      }
      ::_exit(0);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
    wait_for('r');
  }
  ~Child() {
    ::close(to_);
    ::close(from_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  int pid() const { return pid_; }
  // Tells it to go and waits until its work is done.
  void run() {
    if (::write(to_, "g", 1) != 1) throw std::runtime_error("write");
    wait_for('d');
  }

 private:
  void wait_for(char expected) {
    char c = 0;
    if (::read(from_, &c, 1) != 1 || c != expected) throw std::runtime_error("child failed");
  }
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
};

// The CPU time a meter sees `child` use while it does its work, in ms.
double charged_ms(const CpuMeter& meter, Child& child) {
  const std::optional<std::int64_t> before = meter.used_ns();
  EXPECT_TRUE(before.has_value()) << meter.describe();
  child.run();
  const std::optional<std::int64_t> after = meter.used_ns();
  EXPECT_TRUE(after.has_value()) << meter.describe();
  return before && after ? static_cast<double>(*after - *before) / 1e6 : -1;
}

// Scheduler statistics count in ns; the only slack is the child's own bookkeeping around the burn.
constexpr double kBurnMs = 150;
constexpr double kToleranceMs = 15;

TEST(CpuTime, SchedstatChargesABurningProcessWhatItBurnt) {
  Child child(Work::Burn, kBurnMs);
  const double charged = charged_ms(CpuMeter::of_process_tree(child.pid()), child);
  EXPECT_NEAR(charged, kBurnMs, kToleranceMs);
}

TEST(CpuTime, SchedstatChargesASleepingProcessNearlyNothing) {
  Child child(Work::Sleep, kBurnMs);
  EXPECT_LT(charged_ms(CpuMeter::of_process_tree(child.pid()), child), 5);
}

TEST(CpuTime, SchedstatCountsTheWholeProcessTree) {
  Child child(Work::BurnInGrandchild, kBurnMs);
  EXPECT_NEAR(charged_ms(CpuMeter::of_process_tree(child.pid()), child), kBurnMs, kToleranceMs);
}

TEST(CpuTime, SchedstatOfAGoneProcessIsNothing) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_FALSE(CpuMeter::of_process_tree(pid).used_ns().has_value());
}

class CpuTimeGroup : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = controller_unavailable(Controller::Cpuacct))
      GTEST_SKIP() << "no CPU accounting group can be made here: " << *why;
    GroupLimits limits;
    limits.cpu_accounting = true;
    Expected<EngineGroups> made = EngineGroups::create(limits);
    ASSERT_TRUE(made.ok()) << made.error();
    groups_.emplace(std::move(made).value());
    ASSERT_FALSE(groups_->cpu_usage_file().empty());
    // The accounting group first (a `cpu` group may follow, for the scheduler's weights).
    ASSERT_GE(groups_->procs_files().size(), 1u);
    ASSERT_EQ(std::filesystem::path(groups_->procs_files()[0]).parent_path(),
              std::filesystem::path(groups_->cpu_usage_file()).parent_path());
  }
  std::optional<EngineGroups> groups_;
};

TEST_F(CpuTimeGroup, ChargesABurningProcessWhatItBurnt) {
  Child child(Work::Burn, kBurnMs, groups_->procs_files()[0]);
  const CpuMeter meter = CpuMeter::of_group(groups_->cpu_usage_file());
  EXPECT_TRUE(meter.from_group());
  EXPECT_NEAR(charged_ms(meter, child), kBurnMs, kToleranceMs);
}

TEST_F(CpuTimeGroup, ChargesASleepingProcessNearlyNothing) {
  Child child(Work::Sleep, kBurnMs, groups_->procs_files()[0]);
  EXPECT_LT(charged_ms(CpuMeter::of_group(groups_->cpu_usage_file()), child), 5);
}

TEST_F(CpuTimeGroup, CountsProcessesThatAlreadyExited) {
  // Unlike the scheduler statistics of living threads, the group keeps what its dead members used.
  const CpuMeter meter = CpuMeter::of_group(groups_->cpu_usage_file());
  const std::int64_t before = meter.used_ns().value_or(-1);
  {
    Child child(Work::Burn, kBurnMs, groups_->procs_files()[0]);
    child.run();
  }
  const std::int64_t after = meter.used_ns().value_or(-1);
  EXPECT_NEAR(static_cast<double>(after - before) / 1e6, kBurnMs, kToleranceMs);
}

TEST(CpuTime, ReadsBothAccountingFormats) {
  const system::TempFolder dir("kalah-cpu-time");
  const std::string v1 = (dir / "cpuacct.usage").string(), v2 = (dir / "cpu.stat").string();
  std::FILE* f = std::fopen(v1.c_str(), "w");
  std::fputs("123456789\n", f);
  std::fclose(f);
  f = std::fopen(v2.c_str(), "w");
  std::fputs("usage_usec 2500\nuser_usec 2000\nsystem_usec 500\n", f);
  std::fclose(f);
  EXPECT_EQ(group_cpu_ns(v1), 123456789);
  EXPECT_EQ(group_cpu_ns(v2), 2500000);
  EXPECT_FALSE(group_cpu_ns((dir / "missing").string()).has_value());
}

}  // namespace
}  // namespace kalah
