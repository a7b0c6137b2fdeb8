#include "reports/plot.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace fs = std::filesystem;

namespace csrgat::reports {
namespace {

// A temp file made by mkstemps, removed when this goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& suffix) {
    std::error_code ec;
    fs::path dir = fs::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string templ = (dir / ("csrgat-report-XXXXXX" + suffix)).string();
    const int fd = mkstemps(templ.data(), static_cast<int>(suffix.size()));
    if (fd >= 0) {
      ::close(fd);
      path = templ;
    }
  }
  ~TempFile() {
    if (!path.empty()) {
      std::error_code ec;
      fs::remove(path, ec);
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

std::string tail(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(s.size() - n);
}

std::string first_line(const std::string& s) {
  // The useful line of a Python traceback is its last one.
  std::string t = s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env, double timeout_s) {
  ProcessResult r;
  if (argv.empty()) return r;
  TempFile log(".log");
  if (log.path.empty()) {
    r.output = "cannot create a temporary file";
    return r;
  }
  std::vector<std::string> env_store;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto& x : extra_env) overridden = overridden || x.substr(0, x.find('=')) == name;
    if (!overridden) env_store.push_back(entry);
  }
  env_store.insert(env_store.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp, args;
  for (auto& s : env_store) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_store = argv;
  for (auto& s : argv_store) args.push_back(s.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.path.c_str(), O_WRONLY | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.output = std::string("cannot start ") + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) {
      status = -1;
      break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!r.timed_out && status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  std::ifstream in(log.path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = tail(ss.str(), 64 * 1024);
  // posix_spawnp reports a missing program only through the child's exit status 127.
  if (r.exit_code == 127 && r.output.empty()) r.output = std::string(argv[0]) + ": not found";
  return r;
}

std::string find_matplotlib_python(std::string* why) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("CSRGAT_PYTHON"); env && *env) candidates.push_back(env);
  candidates.push_back("python3");
  candidates.push_back("/usr/bin/python3");
  std::string reasons;
  for (const auto& py : candidates) {
    const ProcessResult r = run_process(
        {py, "-c", "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"},
        {"MPLBACKEND=Agg"}, 60);
    if (r.started && r.exit_code == 0) return py;
    if (!reasons.empty()) reasons += "; ";
    reasons += py + ": " +
               (r.timed_out        ? "timed out importing matplotlib"
                : r.output.empty() ? "failed"
                                   : first_line(r.output));
  }
  if (why) *why = reasons;
  return "";
}

PlotOutcome plot_charts(const std::string& chart_json, const std::string& out_dir) {
  PlotOutcome o;
  try {
    if (const char* off = std::getenv("CSRGAT_NO_CHARTS"); off && *off && std::string(off) != "0") {
      o.note = "charts disabled by CSRGAT_NO_CHARTS";
      return o;
    }
    std::string why;
    o.python = find_matplotlib_python(&why);
    if (o.python.empty()) {
      o.note =
          "no Python with matplotlib found (" + why + "); set CSRGAT_PYTHON to one that has it";
      return o;
    }
    TempFile script(".py");
    if (script.path.empty()) {
      o.note = "cannot create a temporary file for the plot script";
      return o;
    }
    {
      std::ofstream out(script.path);
      out << embedded_plot_script();
      if (!out) {
        o.note = "cannot write the plot script to " + script.path;
        return o;
      }
    }
    // matplotlib wants a writable config folder; $HOME may not be one on a batch machine.
    std::vector<std::string> env{"MPLBACKEND=Agg"};
    std::string mpl_dir;
    if (!std::getenv("MPLCONFIGDIR")) {
      std::error_code ec;
      mpl_dir =
          (fs::temp_directory_path(ec) / ("csrgat-mpl-" + std::to_string(::getpid()))).string();
      fs::create_directories(mpl_dir, ec);
      env.push_back("MPLCONFIGDIR=" + mpl_dir);
    }
    const ProcessResult r = run_process({o.python, script.path, chart_json, out_dir}, env, 300);
    if (!mpl_dir.empty()) {
      std::error_code ec;
      fs::remove_all(mpl_dir, ec);
    }
    std::istringstream lines(r.output);
    std::string line, warnings;
    while (std::getline(lines, line)) {
      if (line.rfind("wrote ", 0) == 0)
        o.files.push_back(line.substr(6));
      else if (!line.empty())
        warnings += line + "\n";
    }
    o.ok = r.exit_code == 0 && !o.files.empty();
    if (!o.ok)
      o.note = o.python + " " +
               (r.timed_out ? "timed out" : "failed (exit " + std::to_string(r.exit_code) + ")") +
               " running the plot script: " + first_line(r.output);
    else
      o.note = warnings;
  } catch (const std::exception& e) {
    o.ok = false;
    o.note = std::string("plotting failed: ") + e.what();
  }
  return o;
}

}  // namespace csrgat::reports
