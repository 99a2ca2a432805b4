#pragma once
// A throwaway PostgreSQL server for one test process (tests/tools/postgres-local.sh): started on first use, stopped
// when the process ends; each caller gets a database of its own in it.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace emporium::test {

// tests/tools/postgres-local.sh, which starts, stops and restarts a test's own PostgreSQL.
inline std::string postgres_script() { return std::string(EMPORIUM_SOURCE_DIR) + "/tests/tools/postgres-local.sh"; }

// A PostgreSQL server started in `dir` by the script: its URI, or (uri empty) why not and whether that is because
// PostgreSQL is not installed here (the script's exit status 3).
struct postgres_started {
  std::string uri;
  std::string why;
  bool not_installed = false;
};
inline postgres_started start_postgres(const std::string& dir) {
  postgres_started started;
  const std::string errors = dir + ".err";
  const std::string command = postgres_script() + " start " + dir + " 2>" + errors;
  std::unique_ptr<FILE, int (*)(FILE*)> out(::popen(command.c_str(), "r"), ::pclose);
  std::array<char, 512> line{};
  if (out && std::fgets(line.data(), line.size(), out.get())) started.uri = line.data();
  while (!started.uri.empty() && (started.uri.back() == '\n' || started.uri.back() == '\r')) started.uri.pop_back();
  const int status = out ? ::pclose(out.release()) : -1;
  if (status != 0 || started.uri.empty()) {
    started.uri.clear();
    if (FILE* f = std::fopen(errors.c_str(), "r")) {
      for (int c; (c = std::fgetc(f)) != EOF;) started.why += static_cast<char>(c);
      std::fclose(f);
    }
    started.not_installed = WIFEXITED(status) && WEXITSTATUS(status) == 3;
  }
  std::filesystem::remove(errors);
  return started;
}

class postgres_local {
 public:
  // The process's server; nullopt (and the reason in why_not()) when PostgreSQL is not installed.
  static postgres_local* instance() {
    static postgres_local server;
    return server.uri_.empty() ? nullptr : &server;
  }
  static const std::string& why_not() { return instance_reason(); }
  // False only when PostgreSQL is not installed here (the script's exit status 3): then tests skip; a server that is
  // installed and does not start fails them.
  static bool installed() {
    instance();
    return !not_installed();
  }

  // A new empty database on it: a URI naming it.
  std::string new_database() {
    static std::atomic<int> counter{0};
    const std::string name = "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    run("CREATE DATABASE " + name);
    return uri_.substr(0, uri_.rfind('/') + 1) + name;
  }
  // Runs one SQL statement on the server's own database; returns the first value of the first row ("" if none).
  std::string run(const std::string& sql, const std::string& uri = "") {
    PGconn* conn = PQconnectdb((uri.empty() ? uri_ : uri).c_str());
    std::string value;
    PGresult* r = PQexec(conn, sql.c_str());
    const auto status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      ADD_FAILURE() << sql << ": " << PQerrorMessage(conn);
    } else if (PQntuples(r) > 0) {
      value = PQgetvalue(r, 0, 0);
    }
    PQclear(r);
    PQfinish(conn);
    return value;
  }
  const std::string& uri() const { return uri_; }

  ~postgres_local() {
    if (!dir_.empty()) std::system((postgres_script() + " stop " + dir_ + " >/dev/null 2>&1").c_str());
  }

 private:
  static std::string& instance_reason() {
    static std::string reason;
    return reason;
  }
  static bool& not_installed() {
    static bool flag = false;
    return flag;
  }

  postgres_local() {
    dir_ = (std::filesystem::temp_directory_path() / ("emporium-pg-" + std::to_string(::getpid()))).string();
    auto started = start_postgres(dir_);
    uri_ = started.uri;
    if (uri_.empty()) {
      instance_reason() = "PostgreSQL could not be started: " + started.why;
      not_installed() = started.not_installed;
      dir_.clear();
    }
  }

  std::string dir_;
  std::string uri_;
};

// In a test: the process's PostgreSQL; where it is not installed the test is skipped with a loud message, and
// where it is installed but does not start the test fails.
#define EMPORIUM_NEED_POSTGRES(var)                                                                   \
  auto* var = ::emporium::test::postgres_local::instance();                                          \
  if (!var && ::emporium::test::postgres_local::installed()) {                                       \
    FAIL() << ::emporium::test::postgres_local::why_not();                                           \
  }                                                                                                   \
  if (!var) {                                                                                         \
    std::fprintf(stderr, "\n*** SKIPPED: no PostgreSQL here (scripts/setup.sh --test installs it) ***\n%s\n", \
                 ::emporium::test::postgres_local::why_not().c_str());                                \
    GTEST_SKIP() << "PostgreSQL is not installed: " << ::emporium::test::postgres_local::why_not();  \
  }

}  // namespace emporium::test
