#include "net/http_session.hpp"

#include <spdlog/spdlog.h>

#include "analyses/analyses.hpp"
#include "common/metrics.hpp"
#include "common/secrets.hpp"
#include "mail/mailer.hpp"
#include "push/push_sender.hpp"
#include "net/account_http.hpp"
#include "people/accounts.hpp"
#include "store/store.hpp"
#include "store/store_health.hpp"
#include "common/web_files.hpp"
#include "net/origin.hpp"
#include "net/static_files.hpp"
#include "net/websocket_session.hpp"
#include "records/game_records.hpp"
#include "tables/lobby.hpp"

namespace emporium::server {
namespace {

constexpr std::size_t kBodyLimit = 16 * 1024;
constexpr auto kReadTimeout = std::chrono::seconds(30);

http::response<http::string_body> text_response(unsigned version, bool keep_alive, http::status status,
                                                std::string body,
                                                std::string_view type = "text/plain; charset=utf-8") {
  http::response<http::string_body> res{status, version};
  res.set(http::field::server, "emporium");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keep_alive);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

http::response<http::string_body> text_response(const http::request<http::string_body>& req,
                                                http::status status, std::string body,
                                                std::string_view type = "text/plain; charset=utf-8") {
  return text_response(req.version(), req.keep_alive(), status, std::move(body), type);
}

// An account request's answer: JSON, never cached.
http::response<http::string_body> json_response(const http::request<http::string_body>& req, unsigned status,
                                                const nlohmann::json& body) {
  return text_response(req, static_cast<http::status>(status), body.dump(), "application/json; charset=utf-8");
}

http::response<http::string_body> json_error(const http::request<http::string_body>& req, unsigned status,
                                             std::string_view code, std::string_view message) {
  return json_response(req, status, {{"error", {{"code", code}, {"message", message}}}});
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A web client file from memory: compressed when the client takes gzip, 304 when its validator still holds.
// no-cache makes the browser ask every time, so a new version is seen at once; the 304 costs a few bytes.
http::response<http::string_body> static_response(const http::request<http::string_body>& req,
                                                  const WebFiles::File& file) {
  const bool packed = !file.gzipped.empty() && accepts_gzip(req[http::field::accept_encoding]);
  const auto& etag = packed ? file.gzipped_etag : file.etag;
  const auto& body = packed ? file.gzipped : file.body;
  const bool fresh = etag_matches(req[http::field::if_none_match], etag);
  const bool head = req.method() == http::verb::head;
  auto res = text_response(req, fresh ? http::status::not_modified : http::status::ok,
                           fresh || head ? std::string() : body, file.type);
  res.set(http::field::cache_control, "no-cache");
  res.set(http::field::etag, etag);
  res.set("X-Content-Type-Options", "nosniff");
  if (!file.gzipped.empty()) res.set(http::field::vary, "Accept-Encoding");
  if (packed) res.set(http::field::content_encoding, "gzip");
  if (fresh) {
    res.erase(http::field::content_type);
    res.erase(http::field::content_length);
  } else if (head) {
    res.content_length(body.size());
  }
  return res;
}

// GET /games/<id>/data.json: a game's component data file, exactly as the server loaded and checked it at
// start-up (the board needs the names, the map, the cards), served like the client's files. Nothing when the
// target is not such a path.
std::optional<http::response<http::string_body>> game_data_response(const http::request<http::string_body>& req,
                                                                    const ServerContext& context) {
  constexpr std::string_view prefix = "/games/", suffix = "/data.json";
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (!path.starts_with(prefix) || !path.ends_with(suffix) || path.size() <= prefix.size() + suffix.size()) {
    return std::nullopt;
  }
  const auto it = context.game_data.find(std::string(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size())));
  if (it == context.game_data.end()) return text_response(req, http::status::not_found, "Not found.\n");
  return static_response(req, it->second);
}

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, std::shared_ptr<const ServerContext> context,
                           std::unique_ptr<AddressLimits::Slot> slot)
    : stream_(std::move(socket)), context_(std::move(context)), slot_(std::move(slot)) {}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(kBodyLimit);
  stream_.expires_after(kReadTimeout);
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

template <class Response>
void HttpSession::send(Response&& response) {
  auto sp = std::make_shared<std::decay_t<Response>>(std::forward<Response>(response));
  response_ = sp;
  const bool keep_alive = sp->keep_alive();
  http::async_write(stream_, *sp,
                    beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec == http::error::header_limit) {
    // Say why instead of just hanging up; the rest of the request is not parsed, so the connection ends.
    return send(text_response(11, false, http::status::request_header_fields_too_large,
                              "The request's headers are too large (at most 8 KiB).\n"));
  }
  if (ec == http::error::body_limit) {
    // The same for a body over kBodyLimit (an account request's JSON is far smaller).
    auto res = json_error(parser_->get(), 413, "too_large", "the request's body is too large (at most 16 KiB)");
    res.keep_alive(false);
    return send(std::move(res));
  }
  if (ec) {
    if (ec != beast::error::timeout && ec != net::error::operation_aborted) spdlog::debug("http read: {}", ec.message());
    return;
  }
  const auto& req = parser_->get();

  if (websocket::is_upgrade(req)) {
    if (req.target() != "/ws" && req.target().substr(0, 4) != "/ws?") {
      return send(text_response(req, http::status::not_found, "WebSocket connections go to /ws.\n"));
    }
    if (!origin_allowed(req[http::field::origin], req[http::field::host], context_->allowed_origins)) {
      context_->metrics->message_refused("forbidden_origin");
      return send(text_response(req, http::status::forbidden,
                                "Pages from " + std::string(req[http::field::origin]) +
                                    " may not open WebSocket connections to this server (see --allowed-origins).\n"));
    }
    return upgrade();
  }
  if (const std::string_view path = req.target().substr(0, req.target().find('?')); path.starts_with("/api/")) {
    return serve_account(path);
  }
  if (auto analysis = Analyses::parse(req.target())) return serve_analysis(std::move(*analysis));
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = text_response(req, http::status::method_not_allowed, "Only GET and HEAD are served here.\n");
    res.set(http::field::allow, "GET, HEAD");
    return send(std::move(res));
  }
  const std::string_view target = req.target();
  if (target == "/healthz") {
    // Unhealthy while the store does not answer: a proxy sends new players elsewhere (or nowhere) meanwhile. The
    // reason is in the log, not here: this answer is public.
    if (!context_->tables->health->up()) {
      return send(text_response(req, http::status::service_unavailable, "store unavailable\n"));
    }
    return send(text_response(req, http::status::ok, "ok\n"));
  }
  if (target == "/metrics") {
    const auto& tables = *context_->tables;
    return send(text_response(req, http::status::ok,
                              context_->metrics->render(tables.lobby->room_counts()) +
                                  tables.health->render(tables.store->reconnections()) +
                                  (context_->mailer ? context_->mailer->metrics() : std::string()) +
                                  (context_->push ? context_->push->metrics() : std::string()) +
                                  (context_->analyses ? context_->analyses->metrics() : std::string()),
                              "text/plain; version=0.0.4; charset=utf-8"));
  }
  if (auto data = game_data_response(req, *context_)) return send(std::move(*data));
  if (auto record = GameRecords::parse(target)) return serve_record(std::move(*record));

  auto path = resolve_static_path(context_->web_root, target);
  if (!path) return send(text_response(req, http::status::bad_request, "Illegal request target.\n"));
  auto file = context_->web_files->get(*path);
  if (!file) {
    // Client-side routes (no file extension; a player's page and a leaderboard whatever their name) fall back to
    // the app's index page.
    const auto last = target.substr(0, target.find_first_of("?#"));
    if (last.substr(last.rfind('/') + 1).find('.') == std::string_view::npos || last.starts_with("/u/") ||
        last.starts_with("/leaderboard/")) {
      file = context_->web_files->get(context_->web_root + "/index.html");
    }
  }
  if (!file) return send(text_response(req, http::status::not_found, "Not found.\n"));
  send(static_response(req, *file));
}

void HttpSession::serve_record(GameRecords::Request r) {
  // Answered on a worker; the reply is sent from this session's executor. No other request is read meanwhile.
  context_->records->serve(std::move(r), [self = shared_from_this()](GameRecords::Answer a) {
    net::post(self->stream_.get_executor(), [self, a = std::move(a)] {
      const auto& req = self->parser_->get();
      if (!a.file) return self->send(text_response(req, static_cast<http::status>(a.status), a.error));
      self->send(static_response(req, *a.file));
    });
  });
}

bool HttpSession::from_own_page() const {
  // Same-origin only: a browser always sends Origin with a POST, and a page of another site cannot forge it.
  const auto& req = parser_->get();
  const std::string_view origin = req[http::field::origin];
  return !origin.empty() && (context_->public_origin.empty() ? origin_allowed(origin, req[http::field::host], {})
                                                              : equal_ignoring_case(origin, context_->public_origin));
}

void HttpSession::serve_analysis(Analyses::Request r) {
  const auto& req = parser_->get();
  const bool ask = r.kind == Analyses::Kind::ask;
  if (ask ? req.method() != http::verb::post : req.method() != http::verb::get && req.method() != http::verb::head) {
    // The contract's errors are flat, {"error": code, "message"} (protocol/README.md), not the accounts' form.
    auto res = json_response(req, 405, {{"error", "method_not_allowed"},
                                        {"message", ask ? "ask for an analysis with POST" : "read an analysis with GET"}});
    res.set(http::field::allow, ask ? "POST" : "GET, HEAD");
    return send(std::move(res));
  }
  // Another site's page may not spend this server's CPU on its visitors' behalf.
  if (ask && !from_own_page()) {
    context_->metrics->message_refused("forbidden_origin");
    return send(json_response(req, 403, {{"error", "forbidden_origin"},
                                         {"message", "analyses are asked for only from this site's own pages"}}));
  }
  if (!context_->analyses) {
    return send(json_response(req, 503, {{"error", "analysis_off"}, {"message", "this server runs no analyses"}}));
  }
  // Answered on a worker; the reply is sent from this session's executor. No other request is read meanwhile.
  context_->analyses->serve(std::move(r), client_address(), [self = shared_from_this()](Analyses::Answer a) {
    net::post(self->stream_.get_executor(), [self, a = std::move(a)] {
      const auto& req = self->parser_->get();
      if (a.file) return self->send(static_response(req, *a.file));
      auto res = json_response(req, a.status, a.body);
      if (a.retry_after_s > 0) res.set(http::field::retry_after, std::to_string(a.retry_after_s));
      self->send(std::move(res));
    });
  });
}

std::string HttpSession::client_address() {
  std::string forwarded;
  const auto [first, last] = parser_->get().equal_range("X-Forwarded-For");
  for (auto it = first; it != last; ++it) {
    if (!forwarded.empty()) forwarded += ',';
    forwarded += it->value();
  }
  beast::error_code ec;
  const auto peer = stream_.socket().remote_endpoint(ec);
  if (ec) return {};
  return context_->addresses->address_of(peer.address(), forwarded);
}

void HttpSession::serve_account(std::string_view path) {
  namespace ah = account_http;
  const auto& req = parser_->get();
  const auto match = context_->accounts ? account_route(req.method_string(), path) : std::nullopt;
  if (!match) return send(json_error(req, 404, "not_found", "no such request"));
  const std::string_view origin = req[http::field::origin];
  const std::string csrf = ah::cookie(req[http::field::cookie], ah::kCsrfCookie);
  if (match->changes_state) {
    if (!from_own_page()) {
      context_->metrics->message_refused("forbidden_origin");
      return send(json_error(req, 403, "forbidden_origin", "account requests come only from this site's own pages"));
    }
    if (!ah::csrf_matches(csrf, req[ah::kCsrfHeader])) {
      return send(json_error(req, 403, "bad_csrf_token", "the page's security token is missing or old: reload the page"));
    }
    if (!req[http::field::content_type].starts_with("application/json")) {
      return send(json_error(req, 415, "bad_content_type", "send the request's body as application/json"));
    }
  }
  // Where passkeys are made: the configured origin, else the page's own (checked above for a POST), else this
  // request's Host over plain HTTP.
  std::string page = context_->public_origin;
  if (page.empty()) page = !origin.empty() ? std::string(origin) : "http://" + std::string(req[http::field::host]);
  const bool secure = page.starts_with("https://");
  const std::string_view target = req.target();
  const auto question = target.find('?');
  AccountClient client{client_address(), ah::device_of(req[http::field::user_agent]), page,
                       ah::host_of(page.substr(page.find("//") + 2)),
                       ah::cookie(req[http::field::cookie], ah::kSessionCookie), match->subject,
                       question == std::string_view::npos ? std::string() : std::string(target.substr(question + 1))};
  // The anti-CSRF token, made on the first GET /api/session; the page sends it back with every POST.
  const std::string new_csrf = match->route == AccountRoute::session && csrf.empty() ? random_token(18) : std::string();
  const auto route = match->route;
  context_->accounts->handle(
      route, req.body(), std::move(client),
      [self = shared_from_this(), route, secure, csrf = new_csrf.empty() ? csrf : new_csrf,
       new_csrf](AccountReply reply) {
        net::post(self->stream_.get_executor(), [self, route, secure, csrf, new_csrf, reply = std::move(reply)]() mutable {
          if (route == AccountRoute::session) reply.body["csrf"] = csrf;
          // A mail link's page, or JSON. The page's only form posts back to its own link.
          auto res = reply.html.empty()
                         ? json_response(self->parser_->get(), reply.status, reply.body)
                         : text_response(self->parser_->get(), static_cast<http::status>(reply.status),
                                         std::move(reply.html), "text/html; charset=utf-8");
          if (!reply.html.empty()) {
            res.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'");
            res.set("Referrer-Policy", "no-referrer");  // the link's token stays out of any Referer
          }
          if (!reply.new_session.empty() || reply.end_session) {
            res.insert(http::field::set_cookie,
                       account_http::session_cookie(reply.new_session, secure, std::chrono::hours(24 * 30)));
          }
          if (!new_csrf.empty()) res.insert(http::field::set_cookie, account_http::csrf_cookie(new_csrf, secure));
          if (reply.retry_after.count() > 0) res.set(http::field::retry_after, std::to_string(reply.retry_after.count()));
          if (route == AccountRoute::export_data && reply.status == 200) {
            res.set(http::field::content_disposition, "attachment; filename=\"emporium-account.json\"");
          }
          self->send(std::move(res));
        });
      });
}

void HttpSession::upgrade() {
  // A session cookie signs the connection in; it is looked up on the accounts' workers, never here. A session
  // that cannot be read (the store down) leaves the connection a guest's.
  const std::string session =
      context_->accounts ? account_http::cookie(parser_->get()[http::field::cookie], account_http::kSessionCookie)
                         : std::string();
  if (session.empty()) return open_counted(std::nullopt);
  context_->accounts->session(session, [self = shared_from_this()](std::optional<SignedIn> who) {
    net::post(self->stream_.get_executor(), [self, who = std::move(who)] {
      self->open_counted(who ? std::optional<SignedInAs>(SignedInAs{who->account, who->name, who->session_public_id})
                             : std::nullopt);
    });
  });
}

void HttpSession::open_counted(std::optional<SignedInAs> account) {
  // A signed-in connection counts for its account, a guest's for its address (AddressLimits): a direct connection
  // was counted for its address when accepted; one from a trusted proxy is counted now, for the client it names
  // (the last X-Forwarded-For hop).
  if (account) {
    auto slot = context_->addresses->open_for_account(account->account);
    if (!slot) return refuse_connection("Too many connections open for your account: close some tabs.\n");
    slot_ = std::move(slot);
  } else if (!slot_) {
    const std::string address = client_address();
    if (address.empty()) return;
    slot_ = context_->addresses->open(address);
    if (!slot_) return refuse_connection("Too many connections from your address.\n");
  }
  open_websocket(std::move(account));
}

void HttpSession::refuse_connection(const char* why) {
  context_->metrics->message_refused("connection_cap");
  auto res = text_response(parser_->get(), http::status::too_many_requests, why);
  res.keep_alive(false);
  send(std::move(res));
}

void HttpSession::open_websocket(std::optional<SignedInAs> account) {
  // The WebSocket session takes the socket (and its count) over; this HTTP session ends here.
  std::make_shared<WebSocketSession>(stream_.release_socket(), context_, std::move(slot_), std::move(account))
      ->run(parser_->release());
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  response_.reset();
  if (!keep_alive) return do_close();
  do_read();
}

void HttpSession::do_close() {
  // Gracefully (RFC 9112 9.6): the send side shut, then what the client is still sending (the rest of a body or
  // headers over the limit) read and discarded, bounded in bytes and time, before the socket closes. Closed with
  // unread data, it would send a reset, and the client's TCP could drop the answer before it is read.
  async_teardown(beast::role_type::server, stream_, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace emporium::server
