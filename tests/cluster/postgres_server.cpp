#include "postgres_server.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "postgres_local.hpp"
#include "test_client.hpp"

namespace emporium::testing {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

postgres_server::postgres_server() {
  dir_ = make_temp_dir("emporium-faults-pg") + "/pg";
  auto started = test::start_postgres(dir_);
  uri_ = started.uri;
  if (uri_.empty()) {
    std::filesystem::remove_all(std::filesystem::path(dir_).parent_path());
    if (started.not_installed) throw postgres_not_installed(started.why);
    throw std::runtime_error("PostgreSQL could not be started: " + started.why);
  }
}

postgres_server::~postgres_server() {
  resume();  // a paused server does not stop
  std::system((test::postgres_script() + " stop " + dir_ + " >/dev/null 2>&1").c_str());
  std::filesystem::remove_all(std::filesystem::path(dir_).parent_path());
}

std::string postgres_server::new_database(const std::string& name) {
  postgres_session(uri_).query("CREATE DATABASE " + name);
  return uri_.substr(0, uri_.rfind('/') + 1) + name;
}

void postgres_server::script(const std::string& command) const {
  const std::string line = test::postgres_script() + " " + command + " " + dir_;
  if (std::system(line.c_str()) != 0) throw std::runtime_error(line + " failed");
}

void postgres_server::halt() { script("halt"); }
void postgres_server::restart() { script("restart"); }

std::vector<int> postgres_server::processes() const {
  std::vector<int> pids;
  int postmaster = 0;
  std::ifstream(dir_ + "/data/postmaster.pid") >> postmaster;  // its first line
  if (postmaster <= 0) return pids;
  pids.push_back(postmaster);
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // /proc/<pid>/stat: "pid (command) state ppid ..."; the command may hold spaces, never ") ".
    const std::string stat = read_file(entry.path().string() + "/stat");
    const auto after = stat.rfind(") ");
    if (after == std::string::npos) continue;
    std::istringstream rest(stat.substr(after + 2));
    char state = 0;
    int parent = 0;
    rest >> state >> parent;
    if (parent == postmaster) pids.push_back(std::stoi(name));
  }
  return pids;
}

void postgres_server::pause() {
  // The postmaster first, so that it starts nobody new meanwhile.
  for (const int pid : processes()) ::kill(pid, SIGSTOP);
}

void postgres_server::resume() {
  for (const int pid : processes()) ::kill(pid, SIGCONT);
}

postgres_session::postgres_session(const std::string& uri) : conn_(PQconnectdb(uri.c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string why = PQerrorMessage(conn_);
    PQfinish(conn_);
    throw std::runtime_error("cannot connect to " + uri + ": " + why);
  }
}

postgres_session::~postgres_session() { PQfinish(conn_); }

std::vector<std::vector<std::string>> postgres_session::query(const std::string& sql) {
  std::unique_ptr<PGresult, void (*)(PGresult*)> r(PQexec(conn_, sql.c_str()), PQclear);
  const auto status = PQresultStatus(r.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw std::runtime_error(sql + ": " + PQerrorMessage(conn_));
  }
  std::vector<std::vector<std::string>> rows(static_cast<std::size_t>(PQntuples(r.get())));
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    for (int j = 0; j < PQnfields(r.get()); ++j) rows[static_cast<std::size_t>(i)].push_back(PQgetvalue(r.get(), i, j));
  }
  return rows;
}

}  // namespace emporium::testing
