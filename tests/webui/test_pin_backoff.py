"""Wrong PINs slow down the address that sends them and never lock out another one; the owner
gets in with a one-time code from ``arena-table pin``, once. Logins over real HTTP connections to
the waitress server, each client on its own loopback address (Linux answers every 127.x.y.z)."""

from __future__ import annotations

import http.client
import json
import os
import stat

import pytest
from webhelpers import PIN, needs_loopback_net

from arena_table.cli import main
from arena_table.table.app import Table
from arena_table.table.config import CameraSettings, DataSettings, TableConfig, WebSettings
from arena_table.table.login_codes import CODE_FILE, CODE_TTL_S, LoginCodes, new_code
from arena_table.webui.pin_backoff import FREE_FAILURES, MAX_WAIT_S, PinBackoff, TooSoon
from arena_table.webui.server import ServerThread

GUESSER, PLAYER = "127.0.0.2", "127.0.0.3"


class Browser:
    """One client on its own connection from ``source``, with a session cookie."""

    def __init__(self, port: int, source: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        self.cookie = ""
        self.csrf = self.request("GET", "/api/session")[1]["csrf"]

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
        headers = {"Accept": "application/json", "Cookie": self.cookie}
        if body is not None:
            headers |= {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        if cookie := resp.getheader("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        return resp.status, data, dict(resp.getheaders())

    def log_in(self, pin: str) -> tuple[int, dict, dict]:
        status, data, headers = self.request("POST", "/login", {"pin": pin})
        if status == 200:
            self.csrf = data["csrf"]
        return status, data, headers


@pytest.fixture
def served(tmp_path):
    """The table as ``arena-table run --db DATA/t.db --pin PIN`` builds and serves it."""
    table = Table.build(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                                    web=WebSettings(pin=PIN))).start()
    with ServerThread(table.web, "127.0.0.1", 0) as server:
        yield table, server
    table.close()


@needs_loopback_net
def test_50_wrong_pins_from_one_address_leave_another_able_to_log_in(served):
    table, server = served
    guesser = Browser(server.port, GUESSER)
    answers = [guesser.log_in(f"{n:06d}")[0] for n in range(50)]
    assert answers[:FREE_FAILURES] == [401] * FREE_FAILURES and answers.count(429) >= 40  # slowed down
    status, data, headers = guesser.log_in(PIN)
    assert status == 429 and int(headers["Retry-After"]) >= 1  # the guesser waits, even with the right PIN
    player = Browser(server.port, PLAYER)
    status, data, _ = player.log_in(PIN)
    assert status == 200 and data["authenticated"] is True
    status, body, _ = player.request("POST", "/api/events", {"notation": "roll faces=[5]"})
    assert status == 201 and table.version == 1


@needs_loopback_net
def test_a_one_time_code_logs_in_once_even_where_wrong_pins_made_the_address_wait(served, capsys):
    table, server = served
    owner = Browser(server.port, GUESSER)
    for n in range(FREE_FAILURES + 1):
        owner.log_in(f"{n:06d}")
    assert owner.log_in(PIN)[0] == 429
    assert main(["pin", "--data-dir", str(table.data_dir)]) == 0
    code = capsys.readouterr().out.split("one-time login code ")[1].split()[0]
    assert len(code) == 19 and code.replace("-", "").isdigit()
    stored = (table.data_dir / CODE_FILE).read_text()
    assert code.replace("-", "") not in stored and len(stored.split()[1]) == 64  # only its hash is kept
    assert stat.S_IMODE((table.data_dir / CODE_FILE).stat().st_mode) == 0o600
    status, data, _ = owner.log_in(code)
    assert status == 200 and data["authenticated"] is True
    assert not (table.data_dir / CODE_FILE).exists()
    assert owner.request("POST", "/api/events", {"notation": "roll faces=[3]"})[0] == 201

    again = Browser(server.port, PLAYER)  # the same code, another time, from anywhere: refused
    status, data, _ = again.log_in(code)
    assert status == 401 and "wrong, used or expired login code" in data["error"]
    assert again.request("POST", "/api/events", {"notation": "roll faces=[3]"})[0] == 401


def test_a_code_is_refused_after_it_expires_and_replaced_by_a_new_one(tmp_path):
    now = [1_000_000.0]
    first = new_code(tmp_path, clock=lambda: now[0])
    second = new_code(tmp_path, clock=lambda: now[0])
    codes = LoginCodes(tmp_path, clock=lambda: now[0])
    assert not codes.use(first)  # replaced
    now[0] += CODE_TTL_S + 1
    assert not codes.use(second)  # expired
    third = new_code(tmp_path, clock=lambda: now[0])
    assert not codes.use(third[:-1] + str((int(third[-1]) + 1) % 10))  # one digit wrong
    assert codes.use(third.replace("-", " ")) and not codes.use(third)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root writes into another user's folder")
def test_sudo_arena_table_pin_gives_the_code_file_to_the_services_user(tmp_path):
    os.chown(tmp_path, 4242, 4243)
    new_code(tmp_path)
    st = (tmp_path / CODE_FILE).stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (4242, 4243, 0o600)


def test_pin_without_a_table_in_the_folder_says_so(tmp_path, capsys):
    assert main(["pin", "--data-dir", str(tmp_path / "nowhere")]) == 1
    assert "holds no table's PIN (pin.txt)" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()


def test_waits_double_to_an_hour_and_other_addresses_never_wait():
    now = [0.0]
    backoff = PinBackoff(clock=lambda: now[0])
    waits = []
    for _ in range(50):  # 50 wrong PINs, each sent as soon as the guesser may
        now[0] += backoff.wait("192.0.2.7")
        assert backoff.attempt("192.0.2.7", lambda: False) is False
        waits.append(backoff.wait("192.0.2.7"))
    assert waits[:FREE_FAILURES - 1] == [0.0] * (FREE_FAILURES - 1)
    assert waits[FREE_FAILURES - 1:FREE_FAILURES + 3] == [1.0, 2.0, 4.0, 8.0] and waits[-1] == MAX_WAIT_S
    with pytest.raises(TooSoon):
        backoff.attempt("192.0.2.7", lambda: True)
    assert backoff.wait("192.0.2.8") == 0.0 and backoff.attempt("192.0.2.8", lambda: True)
    now[0] += MAX_WAIT_S
    assert backoff.attempt("192.0.2.7", lambda: True) and backoff.wait("192.0.2.7") == 0.0  # a right PIN forgets


@needs_loopback_net
def test_a_clients_own_x_forwarded_for_is_not_believed(served):
    """Without ``web.trusted_proxy`` the peer address counts, whatever the client says it is."""
    table, server = served
    guesser = Browser(server.port, GUESSER)
    answers = []
    for n in range(FREE_FAILURES + 1):
        guesser.conn.putrequest("POST", "/login")  # a new "address" in each request's header
        for name, value in {"X-Forwarded-For": f"192.0.2.{n + 1}", "Content-Type": "application/json",
                            "X-CSRF-Token": guesser.csrf, "Cookie": guesser.cookie,
                            "Content-Length": "17"}.items():
            guesser.conn.putheader(name, value)
        guesser.conn.endheaders(b'{"pin": "000000"}')
        resp = guesser.conn.getresponse()
        resp.read()
        answers.append(resp.status)
    assert answers == [401] * FREE_FAILURES + [429]


@needs_loopback_net
def test_behind_a_trusted_proxy_its_x_forwarded_for_names_the_client(tmp_path):
    proxy = "127.0.0.5"
    table = Table.build(TableConfig(data=DataSettings(db=tmp_path / "t.db"), camera=CameraSettings(source="none"),
                                    web=WebSettings(pin=PIN, trusted_proxy=proxy))).start()
    try:
        with ServerThread(table.web, "127.0.0.1", 0) as server:
            def log_in(client: str, pin: str) -> int:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(proxy, 0))
                conn.request("GET", "/api/session", headers={"X-Forwarded-For": client})
                resp = conn.getresponse()
                token, cookie = json.loads(resp.read())["csrf"], resp.getheader("Set-Cookie").split(";", 1)[0]
                conn.request("POST", "/login", body=json.dumps({"pin": pin}),
                             headers={"Content-Type": "application/json", "X-CSRF-Token": token, "Cookie": cookie,
                                      "X-Forwarded-For": client})
                resp = conn.getresponse()
                resp.read()
                return resp.status

            assert [log_in("192.0.2.50", "000000") for _ in range(FREE_FAILURES + 1)][-1] == 429
            assert log_in("192.0.2.50", PIN) == 429
            assert log_in("192.0.2.51", PIN) == 200  # another client behind the same proxy
    finally:
        table.close()
