#include "websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <emporium/engine/registry.hpp>

#include "cluster.hpp"
#include "lobby.hpp"
#include "metrics.hpp"
#include "room.hpp"
#include "secrets.hpp"
#include "websocket_frame.hpp"

namespace emporium::server {

namespace perr = protocol::errc;
using Json = nlohmann::json;

namespace {
template <class... Ts>
struct overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

std::string guest_name() { return "Guest-" + random_token(3); }
}  // namespace

websocket_session::websocket_session(tcp::socket&& socket, std::shared_ptr<const server_context> context,
                                     std::unique_ptr<address_limits::connection> slot)
    : ws_(std::move(socket)),
      context_(std::move(context)),
      slot_(std::move(slot)),
      hello_timer_(ws_.get_executor()),
      name_(guest_name()),
      tokens_(limits_.burst),
      last_refill_(std::chrono::steady_clock::now()),
      refusal_window_start_(last_refill_) {
  protocol_limits_.min_turn_s = context_->min_turn_s;
}

// Not the lobby: at shutdown a session may outlive it (on_closed has already left it anyway).
websocket_session::~websocket_session() { context_->metrics->connection_closed(); }

void websocket_session::run(http::request<http::string_body> upgrade) {
  context_->metrics->connection_opened();
  // Small frames must leave at once: Nagle plus delayed ACKs would add ~40 ms to every event.
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
  // A fixed kernel send buffer (64 KiB, doubled by Linux) bounds what a stalled reader can pin;
  // autotuning would allow 4 MiB per connection. Game frames are small, so this costs no speed;
  // past it, frames wait in our capped queue, and a reader that far behind is dropped.
  beast::get_lowest_layer(ws_).socket().set_option(net::socket_base::send_buffer_size(64 * 1024), ignored);
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "emporium"); }));
  ws_.read_message_max(limits_.hard_frame_bytes);
  ws_.async_accept(upgrade, beast::bind_front_handler(&websocket_session::on_accept, shared_from_this()));
}

void websocket_session::on_accept(beast::error_code ec) {
  if (ec) return on_closed();
  ws_.next_layer().divert_writes_to(this);
  // do_write writes at once what the socket takes: it must not block for the rest (where this fails, every write
  // is asynchronous).
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().non_blocking(true, ignored);
  context_->lobby->add_session(shared_from_this());
  // Every client says hello at once (the web client does on welcome); a connection that does not only holds a
  // descriptor.
  hello_timer_.expires_after(limits_.hello_within);
  hello_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->said_hello_) return;
    self->context_->metrics->message_refused("no_hello");
    self->close_after_flush({websocket::close_code::policy_error,
                             "no hello within " + std::to_string(self->limits_.hello_within.count()) + " s"});
  });
  Json games = Json::array();
  for (const auto& g : engine::all_games()) games.push_back(g.to_json());
  enqueue_text(protocol::render_welcome(games, static_cast<long long>(context_->absent_after.count()),
                                       context_->cluster ? context_->cluster->node() : std::string()));
  do_read();
}

void websocket_session::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&websocket_session::on_read, shared_from_this()));
}

void websocket_session::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) {
    if (ec != websocket::error::closed && ec != net::error::operation_aborted && ec != beast::error::timeout &&
        ec != net::error::eof && ec != net::error::connection_reset) {
      spdlog::debug("websocket read: {}", ec.message());
    }
    return on_closed();
  }
  const auto received = std::chrono::steady_clock::now();
  const std::string frame = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());

  if (!within_rate()) {
    // The refused request's id, when it can be read: only the id is looked at, never the message.
    const Json re = ws_.got_text() && bytes <= limits_.max_frame_bytes ? protocol::request_id(frame) : Json(nullptr);
    if (refusals_in_window_ >= limits_.refusals_before_disconnect) {
      context_->metrics->message_refused("flood_disconnect");
      enqueue_text(protocol::render_error(re, perr::rate_limited, "too many messages: disconnecting"));
      close_after_flush({websocket::close_code::policy_error, "message flood"});
      return;  // no more reading
    }
    refuse(re, perr::rate_limited, "too many messages: at most " +
                                       std::to_string(static_cast<int>(limits_.messages_per_second)) +
                                       " a second; this one was ignored");
    return do_read();
  }
  if (!ws_.got_text()) {
    refuse(nullptr, perr::bad_message, "send JSON in text frames");
    return do_read();
  }
  if (bytes > limits_.max_frame_bytes) {
    refuse(nullptr, perr::frame_too_large,
           "a frame may hold at most " + std::to_string(limits_.max_frame_bytes) + " bytes");
    return do_read();
  }
  auto parsed = protocol::parse_client_message(frame, protocol_limits_);
  if (auto* error = std::get_if<protocol::ParseError>(&parsed)) {
    refuse(error->id, error->code, error->message);
  } else {
    auto request = std::get<protocol::Request>(std::move(parsed));
    if (waits_for_a_slot(request)) {
      // At the cap while rooms have still to answer: whether one frees a slot is not known yet. Requests are
      // handled in order, so nothing more is read until they have (slot_released).
      deferred_.emplace(std::move(request), received);
      return;
    }
    handle(std::move(request), received);
    if (awaiting_table_) return;  // a table is being brought to this node: later() reads on
  }
  do_read();
}

std::function<void(std::shared_ptr<room>)> websocket_session::later() {
  return [self = shared_from_this()](std::shared_ptr<room> table) {
    net::post(self->ws_.get_executor(), [self, table = std::move(table)] {
      auto use = std::move(self->awaiting_table_);
      self->awaiting_table_ = nullptr;
      if (self->closed_ || self->pending_close_ || !use) return;
      use(table);
      self->do_read();
    });
  };
}

void websocket_session::with_table(lobby::lookup found, std::function<void(const std::shared_ptr<room>&)> use) {
  if (!found.pending) return use(found.table);
  awaiting_table_ = std::move(use);  // later() runs it, then reading goes on
}

bool websocket_session::waits_for_a_slot(const protocol::Request& request) const {
  const bool adds_table = std::visit(
      overloaded{[](const protocol::CreateTable&) { return true; }, [](const protocol::Join&) { return true; },
                 [](const protocol::Watch&) { return true; }, [](const protocol::Resume&) { return true; },
                 [](const protocol::Rematch&) { return true; }, [](const auto&) { return false; }},
      request.message);
  return adds_table && reserved_slots_ > 0 && tables_.size() + reserved_slots_ >= limits_.max_tables;
}

void websocket_session::slot_released() {
  if (slots_given_up_ > 0) {
    --slots_given_up_;  // joined() gave this request's slot up already
  } else {
    --reserved_slots_;
  }
  if (!deferred_ || waits_for_a_slot(deferred_->first)) return;
  auto [request, received] = std::move(*deferred_);
  deferred_.reset();
  if (closed_ || pending_close_) return;
  handle(std::move(request), received);
  if (!awaiting_table_) do_read();
}

bool websocket_session::within_rate() {
  const auto now = std::chrono::steady_clock::now();
  tokens_ = std::min(limits_.burst,
                     tokens_ + std::chrono::duration<double>(now - last_refill_).count() * limits_.messages_per_second);
  last_refill_ = now;
  if (now - refusal_window_start_ > std::chrono::seconds(10)) {
    refusal_window_start_ = now;
    refusals_in_window_ = 0;
  }
  if (tokens_ >= 1) {
    tokens_ -= 1;
    return true;
  }
  ++refusals_in_window_;
  return false;
}

void websocket_session::refuse(const Json& re, const std::string& code, const std::string& message) {
  context_->metrics->message_refused(code);
  enqueue_text(protocol::render_error(re, code, message));
}

bool websocket_session::room_for_another_table(const Json& re) {
  if (tables_.size() + reserved_slots_ < limits_.max_tables) return true;
  refuse(re, perr::too_many_tables, "this connection has too many tables open");
  return false;
}

// A request that may add a table holds a slot from the moment it is accepted until its room has answered: the
// room's joined() is posted back later, so counting only joined tables let back-to-back requests pass the cap.
template <class Request>
void websocket_session::in_table_slot(const std::shared_ptr<room>& table, Request&& request) {
  ++reserved_slots_;
  request();
  table->after_requests(slot_releaser());
}

// Run after the room's answer, so a joined() it posted lands before the slot is freed.
std::function<void()> websocket_session::slot_releaser() {
  return [self = shared_from_this()] { net::post(self->ws_.get_executor(), [self] { self->slot_released(); }); };
}

std::shared_ptr<room> websocket_session::table_for(const std::string& id, const Json& re) {
  auto it = tables_.find(id);
  if (it == tables_.end()) {
    refuse(re, perr::no_such_table, "you are not at table '" + id + "': join or watch it first");
    return nullptr;
  }
  return it->second;
}

void websocket_session::handle(protocol::Request request, std::chrono::steady_clock::time_point received) {
  const Json& re = request.id;
  auto self = shared_from_this();
  std::visit(
      overloaded{
          [&](protocol::Hello& m) {
            said_hello();
            if (m.name) name_ = *m.name;
            enqueue_text(protocol::render_hello(re, name_));
          },
          [&](protocol::SetName& m) {  // answered like hello, and counts as one
            said_hello();
            name_ = m.name;
            enqueue_text(protocol::render_hello(re, name_));
          },
          [&](protocol::WatchLobby& m) {
            // Queued here, before any change the lobby posts from now on.
            enqueue_text(protocol::render_lobby(re, context_->lobby->watch(self, m.on)));
          },
          [&](protocol::CreateTable& m) {
            if (tables_created_ >= limits_.max_tables_created) {
              return refuse(re, perr::too_many_tables, "this connection has created too many tables");
            }
            // Per address too: reconnecting must not reset the count.
            if (!context_->addresses->allow_table(slot_->address(), received)) {
              return refuse(re, perr::too_many_tables,
                            "too many tables created from your address in the last minute; wait a little");
            }
            if (!room_for_another_table(re)) return;
            auto created = context_->lobby->create_table(m);
            if (created.error) return refuse(re, created.error->code, created.error->message);
            ++tables_created_;
            in_table_slot(created.table, [&] { created.table->join(self, name_, std::nullopt, re); });
          },
          [&](protocol::Join& m) {
            if (!room_for_another_table(re)) return;
            with_table(context_->lobby->find(m.ref, later()), [self, seat = m.seat, re](const std::shared_ptr<room>& table) {
              if (!table) return self->refuse(re, perr::no_such_table, "no such table (private tables need their invite code)");
              self->in_table_slot(table, [&] { table->join(self, self->name_, seat, re); });
            });
          },
          [&](protocol::Watch& m) {
            if (!room_for_another_table(re)) return;
            with_table(context_->lobby->find(m.ref, later()), [self, re](const std::shared_ptr<room>& table) {
              if (!table) return self->refuse(re, perr::no_such_table, "no such table (private tables need their invite code)");
              self->in_table_slot(table, [&] { table->watch(self, re); });
            });
          },
          [&](protocol::Resume& m) {
            if (!room_for_another_table(re)) return;
            with_table(context_->lobby->find_by_token(m.token, later()), [self, token = m.token, re](const std::shared_ptr<room>& table) {
              if (!table) return self->refuse(re, perr::bad_token, "that seat token is not valid");
              self->in_table_slot(table, [&] { table->resume(self, token, re); });
            });
          },
          [&](protocol::Leave& m) {
            if (auto table = table_for(m.table, re)) table->leave(self, re);
          },
          [&](protocol::Start& m) {
            if (auto table = table_for(m.table, re)) table->start(self, re);
          },
          [&](protocol::AddBot& m) {
            if (auto table = table_for(m.table, re)) table->add_bot(self, m.seat, std::move(m.level), re);
          },
          [&](protocol::RemoveBot& m) {
            if (auto table = table_for(m.table, re)) table->remove_bot(self, m.seat, re);
          },
          [&](protocol::ReplaceAbsent& m) {
            if (auto table = table_for(m.table, re)) table->replace_absent(self, m.seat, re);
          },
          [&](protocol::Act& m) {
            if (auto table = table_for(m.table, re)) table->act(self, m.version, std::move(m.action), re, received);
          },
          [&](protocol::SnapshotRequest& m) {
            if (auto table = table_for(m.table, re)) table->snapshot(self, re);
          },
          [&](protocol::Chat& m) {
            if (auto table = table_for(m.table, re)) table->chat(self, name_, std::move(m.text), re);
          },
          [&](protocol::Ping&) { enqueue_text(protocol::render_pong(re)); },
          [&](protocol::Rematch& m) {
            if (!room_for_another_table(re)) return;  // the caller takes a seat at the rematch
            if (auto table = table_for(m.table, re)) {
              ++reserved_slots_;
              table->rematch(self, re, slot_releaser());  // answered by the rematch, perhaps once brought here
            }
          },
          // Non-binding: the connection joins, resumes and watches nothing.
          [&](protocol::MyGames& m) { context_->lobby->my_games(self, std::move(m.tokens), re); },
      },
      request.message);
}

void websocket_session::said_hello() {
  said_hello_ = true;
  hello_timer_.cancel();
}

void websocket_session::joined(std::shared_ptr<room> table) {
  net::post(ws_.get_executor(), [self = shared_from_this(), table = std::move(table)] {
    // The table now counts itself: the slot its request held is given up here rather than when the room's
    // answer is confirmed, so a client that sends its next request on the reply is not counted twice.
    if (self->tables_.insert_or_assign(table->id(), table).second && self->reserved_slots_ > 0) {
      --self->reserved_slots_;
      ++self->slots_given_up_;
    }
  });
}

void websocket_session::left(std::string table_id) {
  net::post(ws_.get_executor(), [self = shared_from_this(), table_id = std::move(table_id)] {
    self->tables_.erase(table_id);
  });
}

void websocket_session::send(std::string frame) { send(std::make_shared<const std::string>(std::move(frame))); }

void websocket_session::enqueue_text(std::string frame) {
  enqueue(std::make_shared<const std::string>(std::move(frame)));
}

void websocket_session::send(std::shared_ptr<const std::string> frame) {
  net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)] { self->enqueue(frame); });
}

void websocket_session::send(std::string first, std::shared_ptr<const std::string> second) {
  net::post(ws_.get_executor(), [self = shared_from_this(), first = std::make_shared<const std::string>(std::move(first)),
                                 second = std::move(second)] {
    self->enqueue(first, false);
    self->enqueue(second);
  });
}

void websocket_session::enqueue(std::shared_ptr<const std::string> frame, bool write) {
  if (closed_ || pending_close_) return;
  outgoing out;
  out.header_size = websocket_text_header(frame->size(), out.header);
  out.bytes = std::move(frame);
  if (queue_up(std::move(out)) && write && writing_ == 0) do_write();
}

// Beast's pongs count against the caps too: reported written at once, they no longer hold Beast's reading back,
// so a client that sends pings and reads nothing would otherwise grow the queue without end.
void websocket_session::put_raw(std::string bytes) {
  if (closed_) return;  // nothing more is written: the connection is gone or dropped
  outgoing out;
  out.bytes = std::make_shared<const std::string>(std::move(bytes));
  if (queue_up(std::move(out)) && writing_ == 0) do_write();
}

bool websocket_session::queue_up(outgoing out) {
  queued_bytes_ += out.bytes->size();
  queue_.push_back(std::move(out));
  if (queue_.size() > limits_.max_queued_frames || queued_bytes_ > limits_.max_queued_bytes) {
    drop_connection("slow reader: outbound queue full");
    return false;
  }
  return true;
}

void websocket_session::when_flushed(std::function<void()> then) {
  if (flushed() || closed_) return then();
  on_flushed_.push_back(std::move(then));
}

// Everything queued, in one gathered write (one system call while the socket takes it all). Written at once when
// the socket's buffer has room, the usual case: no asynchronous operation, no completion handler to post and run
// through the strand. Only what the socket does not take now waits for it (async_write).
void websocket_session::do_write() {
  static constexpr std::size_t kMostFrames = 64;
  auto& socket = beast::get_lowest_layer(ws_).socket();
  for (;;) {
    write_buffers_.clear();
    writing_ = std::min(queue_.size(), kMostFrames);
    std::size_t total = 0;
    for (std::size_t i = 0; i < writing_; ++i) {
      const auto& out = queue_[i];
      if (out.header_size) write_buffers_.emplace_back(out.header.data(), out.header_size);
      write_buffers_.emplace_back(out.bytes->data(), out.bytes->size());
      total += out.header_size + out.bytes->size();
    }
    beast::error_code ec;
    const std::size_t written = socket.non_blocking() ? socket.write_some(write_buffers_, ec) : 0;
    if (ec == net::error::would_block || ec == net::error::try_again) ec = {};
    if (ec) return on_write(ec, 0);
    if (written < total) {
      skip_written(written);
      net::async_write(socket, write_buffers_,
                       beast::bind_front_handler(&websocket_session::on_write, shared_from_this()));
      return;
    }
    written_out();
    if (queue_.empty()) return all_written();
  }
}

void websocket_session::skip_written(std::size_t written) {
  auto first = write_buffers_.begin();
  for (; written > 0 && written >= first->size(); ++first) written -= first->size();
  write_buffers_.erase(write_buffers_.begin(), first);
  if (written > 0) write_buffers_.front() += written;
}

void websocket_session::written_out() {
  for (; writing_ > 0; --writing_) {
    queued_bytes_ -= queue_.front().bytes->size();
    queue_.pop_front();
  }
}

void websocket_session::on_write(beast::error_code ec, std::size_t) {
  if (ec) {
    writing_ = 0;
    on_closed();
  } else {
    written_out();
    if (!queue_.empty()) return do_write();
  }
  all_written();
}

void websocket_session::all_written() {
  for (auto& then : std::exchange(on_flushed_, {})) then();
  if (pending_close_ && !close_started_ && !closed_) do_close();
}

// The close frame goes out after the frames queued before it (Beast's close joins the queue: put_raw).
void websocket_session::close_after_flush(websocket::close_reason reason) {
  if (pending_close_ || closed_) return;
  pending_close_ = std::move(reason);
  if (queue_.empty()) do_close();
}

void websocket_session::do_close() {
  close_started_ = true;
  ws_.async_close(*pending_close_, [self = shared_from_this()](beast::error_code) { self->on_closed(); });
}

void websocket_session::drop_connection(const char* why) {
  if (closed_) return;  // counted once
  spdlog::info("closing a connection: {}", why);
  context_->metrics->message_refused("slow_reader_disconnect");
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  on_closed();
}

void websocket_session::close_going_away() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    self->close_after_flush({websocket::close_code::going_away, "server shutting down"});
  });
}

void websocket_session::close_table_moved() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    self->close_after_flush({websocket::close_code::service_restart, "table moved: connect again"});
  });
}

void websocket_session::on_closed() {
  if (closed_) return;
  closed_ = true;  // queued frames stay until destruction: a write may still be using one
  hello_timer_.cancel();
  context_->lobby->remove_session(this);
  for (auto& [id, table] : tables_) table->disconnected(this);
  tables_.clear();
}

}  // namespace emporium::server
