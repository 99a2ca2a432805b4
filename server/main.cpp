// emporium-server: serves the web client over HTTP and the games over WebSocket, on one port.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <iostream>
#include <thread>
#include <vector>

#include <emporium/engine/registry.hpp>

#include "cluster/cluster.hpp"
#include "common/address_limits.hpp"
#include "common/config.hpp"
#include "common/metrics.hpp"
#include "common/wall_clock.hpp"
#include "common/web_files.hpp"
#include "common/worker_pool.hpp"
#include "merkator/data_file.hpp"
#include "net/listener.hpp"
#include "net/open_connections.hpp"
#include "net/origin.hpp"
#include "mail/mail_links.hpp"
#include "mail/mailer.hpp"
#include "push/push_sender.hpp"
#include "push/web_push.hpp"
#include "notify/notifier.hpp"
#include "people/accounts.hpp"
#include "tables/friends.hpp"
#include "analyses/analyses.hpp"
#include "records/game_records.hpp"
#include "store/commit_queue.hpp"
#include "store/guarded_store.hpp"
#include "store/store_health.hpp"
#include "store/heartbeat.hpp"
#include "store/open_store.hpp"
#include "tables/lobby.hpp"
#include "tables/room.hpp"
#include "tables/table_directory.hpp"

using namespace emporium::server;

int main(int argc, char** argv) {
  const auto parsed =
      parse_config(std::vector<std::string>(argv + 1, argv + argc), [](const char* n) { return std::getenv(n); });
  if (parsed.help) {
    std::cout << usage();
    return 0;
  }
  if (parsed.error) {
    std::cerr << "emporium-server: " << *parsed.error << "\n" << usage();
    return 2;
  }
  const Config& config = parsed.config;
  // Game data is read before anything starts: a bad file stops the server with the entry named.
  std::string merkator_data;
  if (auto error = emporium::engine::merkator::load_data_file(config.merkator_data, &merkator_data)) {
    std::cerr << "emporium-server: " << *error << "\n";
    return 2;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));

  try {
    // Declaration order is destruction order in reverse: the io_context goes before the store and
    // the metrics (its pending handlers may still hold sessions that count themselves out), and the
    // directory with its rooms goes before the io_context (their strands live on it).
    const auto opened = open_store(store_setting(config), config.node.empty() ? "main" : config.node,
                                   std::chrono::milliseconds(config.lease_ms));
    // Everything uses the store through its guard, which knows whether it answers (store/guarded_store.hpp).
    StoreHealth health;
    GuardedStore db(*opened, health);
    Metrics counters;
    AddressLimits addresses({static_cast<std::size_t>(config.max_connections_per_ip),
                             static_cast<std::size_t>(config.max_tables_per_ip_per_minute),
                             parse_address_list(config.trusted_proxies),
                             static_cast<std::size_t>(config.max_connections_per_account)});
    TablesContext tables_context;
    tables_context.addresses = &addresses;
    tables_context.metrics = &counters;
    tables_context.store = &db;
    tables_context.health = &health;
    tables_context.bot_delay = std::chrono::milliseconds(config.bot_delay_ms);
    tables_context.absent_after = std::chrono::seconds(config.absent_after_s);
    tables_context.abandoned_after = std::chrono::seconds(config.abandoned_after_s);
    tables_context.forsaken_after = std::chrono::seconds(config.forsaken_after_s);
    tables_context.finished_unwatched_after = std::chrono::seconds(config.finished_unwatched_s);
    tables_context.min_turn_s = config.min_turn_s;
    tables_context.correspondence_turn = std::chrono::seconds(config.correspondence_turn_s);
    // Read before the first beat below: when the previous run was last alive.
    tables_context.last_alive_ms = db.last_alive();
    ServerContext context;
    context.tables = &tables_context;
    context.addresses = &addresses;
    context.web_root = config.web_root;
    context.metrics = &counters;
    WebFiles client_files;
    context.web_files = &client_files;
    context.game_data["merkator"] = WebFiles::make(merkator_data, "application/json; charset=utf-8");
    context.allowed_origins = parse_origin_list(config.allowed_origins);
    net::io_context ioc;
    // Moves are written by one thread in group commits; it is stopped (what it holds written) once the network
    // threads are done, before anything it calls back into goes away.
    CommitQueue commits(db, &counters, std::chrono::milliseconds(config.commit_delay_ms));
    tables_context.commits = &commits;
    Lobby lobby(tables_context);
    tables_context.lobby = &lobby;
    TableDirectory tables(ioc.get_executor(), tables_context);
    tables_context.directory = &tables;
    OpenConnections connections;
    context.connections = &connections;
    // The rooms' and the directory's calls to the store, in order, on a thread of their own: a slow or absent
    // database never holds a network thread.
    WorkerPool store_jobs(1, 0);
    tables_context.store_jobs = &store_jobs;
    // Accounts (docs/accounts.md): a connection of their own to the same database (opened after the store, which
    // brings the schema up to date), and workers of their own for store calls and password hashing. After the
    // io_context, so they stop before it: a request they finish still posts its answer to it.
    const auto people = open_people_store(store_setting(config));
    tables_context.people = people.get();
    // E-mail (docs/mail.md): a bounded queue on a thread of its own, off without --smtp-url; the links' signing key
    // from the store; the notifier turns the tables' notices into mails on a thread of its own.
    const auto env_or_empty = [](const char* name) { const char* v = std::getenv(name); return std::string(v ? v : ""); };
    Mailer mailer(MailerSettings{config.smtp_url, mail_sender(config), env_or_empty("EMPORIUM_SMTP_USER"),
                                 env_or_empty("EMPORIUM_SMTP_PASSWORD")});
    // Web Push (docs/push.md), with --push-contact: the VAPID key from the store (the first node's, so that every
    // node signs with it) and a queue of its own, as the mailer's; the notifier sends pushes where it sends mail.
    std::optional<VapidKey> vapid;
    std::optional<PushSender> push;
    if (people && !config.push_contact.empty()) {
      vapid.emplace(people->server_key("web_push", VapidKey::generate().pem(), unix_now()));
      push.emplace(*people, *vapid, PushSenderSettings{config.push_contact});
    }
    std::optional<MailLinks> mail_links;
    std::optional<Notifier> notifier;
    if (mailer.enabled()) context.mailer = &mailer;
    if (push) context.push = &*push;
    if (people && (mailer.enabled() || push)) {
      mail_links.emplace(*people, config.public_origin);
      const std::chrono::milliseconds minute(config.mail_minute_ms);
      notifier.emplace(*people, mailer, *mail_links, NotifierSettings{minute, std::chrono::seconds(30), 60 * minute},
                       push ? &*push : nullptr);
      tables_context.notices = &*notifier;
    }
    std::optional<Accounts> accounts;
    if (people) {
      AccountsSettings settings;
      for (const auto& game : emporium::engine::all_games()) settings.games.push_back(game.id);  // profiles, leaderboards
      settings.push.allow_loopback = config.push_allow_loopback;
      accounts.emplace(*people, std::move(settings), &mailer, mail_links ? &*mail_links : nullptr,
                       vapid ? &*vapid : nullptr);
      context.accounts = &*accounts;
      // A deleted account's running games go on, its seats played by bots. Only this node's tables: a table
      // another node holds keeps the seat, absent, until replace_absent or its clock hands it over.
      // A session that ends closes the connections it signed in (this node's: another node's keep theirs until
      // they reconnect).
      accounts->on_signed_out([&connections](const std::string& account, const std::string& session) {
        connections.sign_out(account, session);
      });
      // A vacation's start or early end stops or restarts the account's clocks, on every node (docs/mail.md).
      accounts->on_vacation([&tables](const std::string& account, std::optional<long long> until,
                                      const std::vector<ClaimRow>& claims) {
        std::vector<std::string> ids;
        for (const auto& claim : claims) ids.push_back(claim.table_id);
        tables.vacation(account, until, ids);
      });
      accounts->on_deleted([&tables](const std::vector<ClaimRow>& claims, const std::string& deleted_name) {
        for (const auto& claim : claims) {
          if (auto room = tables.find_local(claim.table_id)) room->hand_seat_to_bot(claim.token_hash, deleted_name);
        }
      });
    }
    // Friends, blocks, presence and invitations (docs/friends.md), on a worker of their own.
    std::optional<Friends> friends;
    if (people) {
      // Its presence rows are named as the store names this node's sign of life (a dead node's rows are ignored).
      friends.emplace(*people, Friends::Settings{config.node.empty() ? "main" : config.node});
      friends->start();
      tables_context.friends = &*friends;
      friends->set_notices(tables_context.notices);  // invitations to friends not connected: mailed
      // A moderator's action is told to the account's connections (and a chat mute applies at once); a suspended
      // account's running games on this node go on with bots in its seats.
      accounts->on_moderated([&tables, &friends](const std::string& account, const nlohmann::json& told,
                                                 const std::vector<ClaimRow>& claims) {
        friends->moderated(account, told.dump());
        for (const auto& claim : claims) {
          if (auto room = tables.find_local(claim.table_id)) room->hand_seat_to_bot(claim.token_hash, std::nullopt);
        }
      });
    }
    context.public_origin = config.public_origin;
    // Bots think beside the network threads (one fewer than the cores by default), and stop first.
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    WorkerPool bots(config.bot_threads > 0 ? config.bot_threads : std::max(1, cores - 1));
    tables_context.bots = &bots;
    // Records and replays are built on a thread of their own: replaying a game is too long for a network thread.
    WorkerPool record_workers(1);
    GameRecords records(db, record_workers);
    context.records = &records;
    // Finished games' analyses: a pool of their own at the lowest priority, never more threads than cores; rated
    // games are analysed as they end when the node has nothing waiting.
    Analyses::Settings analysis_settings;
    analysis_settings.threads = std::min(config.analysis_threads, cores);
    analysis_settings.queue = static_cast<std::size_t>(config.analysis_queue);
    analysis_settings.budget = config.analysis_budget;
    analysis_settings.asks_per_minute = static_cast<std::size_t>(config.analysis_asks_per_ip_per_minute);
    Analyses analyses(db, analysis_settings);
    context.analyses = &analyses;
    tables_context.rated_game_ended = [&analyses](const std::string& table) { analyses.rated_game_ended(table); };
    // One node rebuilds every unfinished table now; one of several takes tables over as they are asked for, and
    // sweeps up those whose node is gone (cluster/cluster.hpp).
    std::unique_ptr<Cluster> nodes;
    std::size_t restored = 0;
    if (config.node.empty()) {
      restored = tables.restore();
    } else {
      nodes = std::make_unique<Cluster>(
          Cluster::Settings{store_setting(config), config.node, std::chrono::milliseconds(config.lease_ms)}, db, tables);
      tables_context.cluster = nodes.get();
      if (friends) friends->set_cluster(nodes.get());
      nodes->start();
    }
    Heartbeat alive(ioc.get_executor(), db, health);
    alive.run();

    auto server = std::make_shared<Listener>(ioc, tcp::endpoint{net::ip::make_address(config.bind), config.port},
                                             std::make_shared<const ServerContext>(context));
    server->run();
    const auto port = server->local_endpoint().port();
    // The store named without a PostgreSQL URI's credentials.
    const auto setting = store_setting(config);
    spdlog::info("emporium listening on http://{}:{}/ (web root {}, store {}, {} tables restored)", config.bind, port,
                 config.web_root, kind_of_store(setting) == StoreKind::sqlite ? setting : "PostgreSQL", restored);
    if (mail_links && config.public_origin.empty()) {
      // Set before any thread serves: links need an absolute origin, and without --public-origin only this one is known.
      mail_links->set_origin("http://localhost:" + std::to_string(port));
      spdlog::warn("mail: links in mails point to {}: set --public-origin to the address players reach", mail_links->origin());
    }
    if (!config.port_file.empty()) {
      std::ofstream(config.port_file) << port << "\n";  // for tests and supervisors that ask for port 0
    }

    // SIGINT/SIGTERM: stop accepting, close every connection with "going away", then stop as soon as they
    // are closed (at most 2 s for slow readers). Every announced action was committed to the store before it
    // was announced; the commit queue writes what it still holds when it stops.
    net::signal_set signals(ioc, SIGINT, SIGTERM);
    net::steady_timer closing(ioc);
    std::chrono::steady_clock::time_point give_up;
    std::function<void()> stop_when_closed = [&] {
      if (connections.count() == 0 || std::chrono::steady_clock::now() >= give_up) return ioc.stop();
      closing.expires_after(std::chrono::milliseconds(10));
      closing.async_wait([&](boost::system::error_code) { stop_when_closed(); });
    };
    signals.async_wait([&](boost::system::error_code, int signal) {
      spdlog::info("signal {}: shutting down", signal);
      server->stop();
      connections.close_all();
      alive.stop();
      give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      stop_when_closed();
    });

    const int threads = config.threads > 0 ? config.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
    commits.stop();
    if (nodes) nodes->stop();  // the leases are given up: the other nodes take the tables over at once
    spdlog::info("stopped");
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
