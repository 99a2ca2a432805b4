#pragma once
// A PostgreSQL server of one test's own (tests/tools/postgres-local.sh), which the test stops, starts again and
// pauses as an operator or a failing machine would, and a plain libpq session for the test's own queries.
#include <libpq-fe.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace emporium::testing {

// PostgreSQL is not installed here (the script's exit status 3): tests skip rather than fail.
struct postgres_not_installed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class postgres_server {
 public:
  // Starts a fresh server in a temporary directory; throws postgres_not_installed, or runtime_error when it does
  // not start.
  postgres_server();
  ~postgres_server();
  postgres_server(const postgres_server&) = delete;
  postgres_server& operator=(const postgres_server&) = delete;

  // A new empty database: a URI naming it.
  std::string new_database(const std::string& name);
  // pg_ctl stop -m fast: clients are disconnected, new ones refused, until restart().
  void halt();
  // Stopped the same way if it runs, then started again on the same port; returns once it accepts connections.
  void restart();
  // The postmaster and every process it started, stopped with SIGSTOP (resume() sends SIGCONT): connections stay
  // open and nothing answers, as on a machine that hangs.
  void pause();
  void resume();
  // The server's own log (its lock waits, deadlocks and cancelled statements).
  std::string log_path() const { return dir_ + "/server.log"; }

 private:
  void script(const std::string& command) const;
  std::vector<int> processes() const;  // the postmaster first, then its children

  std::string dir_;
  std::string uri_;
};

// One libpq connection; every statement must succeed (or it throws).
class postgres_session {
 public:
  explicit postgres_session(const std::string& uri);
  ~postgres_session();
  postgres_session(const postgres_session&) = delete;
  postgres_session& operator=(const postgres_session&) = delete;
  // The rows of the result, each value as text (NULL as "").
  std::vector<std::vector<std::string>> query(const std::string& sql);

 private:
  PGconn* conn_;
};

}  // namespace emporium::testing
