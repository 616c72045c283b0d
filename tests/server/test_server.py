#!/usr/bin/env python3
"""edgemt-server over real HTTP: the official LibreTranslate client (libretranslatepy),
plain JSON/form requests, malformed HTTP and JSON, body size limit, concurrent clients,
API keys, and graceful shutdown on SIGTERM with a request in flight.

    python3 tests/server/test_server.py SERVER_BINARY MODEL_FILE

Runs as a plain script (one "ok NAME" / "FAIL NAME" line per test) or under pytest
(EDGEMT_SERVER and EDGEMT_SERVER_MODEL). libretranslatepy tests are skipped when the
package is missing unless EDGEMT_REQUIRE_LIBRETRANSLATEPY=1 (scripts/test python sets it).

A cross-built server runs through its emulator: EDGEMT_SERVER_EMULATOR is the command
prefix (for example "qemu-aarch64 -L /usr/aarch64-linux-gnu"); EDGEMT_SERVER_TESTS, a
comma-separated list of test names without "test_", runs only those (ctest does both for
the Raspberry Pi builds, whose server ships in the .deb).
"""
import faulthandler
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

SERVER = os.environ.get("EDGEMT_SERVER", "")
EMULATOR = os.environ.get("EDGEMT_SERVER_EMULATOR", "").split()
MODEL = os.environ.get("EDGEMT_SERVER_MODEL", "")
SENTENCE = "The file could not be opened."


try:  # under pytest a skip is pytest's; as a script it prints "skip NAME"
    import pytest
    Skip = pytest.skip.Exception
except ImportError:
    class Skip(Exception):
        """A test that cannot run here (printed as "skip NAME", counted as neither)."""


class Server:
    def __init__(self, *extra):
        self.proc = subprocess.Popen([*EMULATOR, SERVER, "--port", "0", "--model", MODEL, *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "listening on http://" not in line:
            self.proc.kill()
            raise RuntimeError("server did not start: " + line + self.proc.stderr.read())
        self.first_line = line
        self.url = line.split("listening on ")[1].split(" ")[0]
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def request(url, body=None, content_type="application/json", method=None, timeout=60):
    data = None
    if body is not None:
        data = json.dumps(body).encode() if content_type == "application/json" else body
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode()), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode()), dict(e.headers)


def raw(port, data, timeout=10):
    """Sends raw bytes, returns what the server answers before closing (may be b"")."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return out
            out += chunk
    finally:
        s.close()


def translate(url, q, **kw):
    return request(url + "/translate", {"q": q, "source": "en", "target": "de", **kw})


def test_libretranslatepy_client():
    try:
        from libretranslatepy import LibreTranslateAPI
    except ImportError:
        if os.environ.get("EDGEMT_REQUIRE_LIBRETRANSLATEPY") == "1":
            raise
        raise Skip("libretranslatepy not installed")
    with Server() as srv:
        lt = LibreTranslateAPI(srv.url)
        out = lt.translate(SENTENCE, "en", "de")
        status, body, _ = translate(srv.url, SENTENCE)
        assert status == 200 and out == body["translatedText"] and out.strip(), (out, body)
        langs = lt.languages()
        assert {"code": "en", "name": "English", "targets": ["de"]} in langs, langs
        det = lt.detect(SENTENCE)
        assert det[0]["language"] == "en", det
        assert srv.stop() == 0


def test_translate_file_and_download():
    """A subtitle file through /translate_file as LibreTranslate's web page sends it
    (multipart form), then its download: the cues translated, numbers and times kept."""
    srt = ("1\r\n00:00:01,000 --> 00:00:04,000\r\nPlease save the document\r\nbefore you close the window."
           "\r\n\r\n2\r\n00:00:05,000 --> 00:00:06,000\r\n" + SENTENCE + "\r\n")
    boundary = "----edgemt-test-boundary"
    parts = []
    for name, value in (("source", "en"), ("target", "de")):
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n')
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="film.srt"\r\n'
                 f'Content-Type: application/x-subrip\r\n\r\n{srt}\r\n--{boundary}--\r\n')
    body = "".join(parts).encode()
    with Server() as srv:
        status, settings, _ = request(srv.url + "/frontend/settings")
        assert status == 200 and settings["filesTranslation"] and ".srt" in settings["supportedFilesFormat"], settings
        status, out, _ = request(srv.url + "/translate_file", body, "multipart/form-data; boundary=" + boundary)
        assert status == 200, out
        url = out["translatedFileUrl"]
        assert url.startswith(srv.url + "/download_file/") and url.endswith(".film.srt"), url
        with urllib.request.urlopen(url, timeout=60) as r:
            got = r.read().decode()
            assert 'filename="film.srt"' in r.headers["Content-Disposition"], dict(r.headers)
        lines = got.split("\r\n")
        assert lines[:2] == ["1", "00:00:01,000 --> 00:00:04,000"] and lines[5:7] == ["2", "00:00:05,000 --> 00:00:06,000"], got
        assert lines[2] and lines[3] and lines[4] == "" and "Please" not in got, got
        _, one, _ = translate(srv.url, SENTENCE)
        assert lines[7] == one["translatedText"], (got, one)
        status, _, _ = request(srv.url + "/download_file/nope.film.srt")
        assert status == 404
        # A Word document (binary, as the web page uploads it): a .docx comes back, its
        # entries kept, its paragraphs translated.
        import io
        import zipfile
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "documents", "sample.docx")
        with open(path, "rb") as f:
            docx = f.read()
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="source"\r\n\r\nen\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="target"\r\n\r\nde\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="guide.docx"\r\n'
                f'Content-Type: application/octet-stream\r\n\r\n').encode() + docx + f'\r\n--{boundary}--\r\n'.encode()
        status, out, _ = request(srv.url + "/translate_file", body, "multipart/form-data; boundary=" + boundary)
        assert status == 200, out
        with urllib.request.urlopen(out["translatedFileUrl"], timeout=60) as r:
            got = r.read()
            assert r.headers["Content-Type"].startswith("application/vnd.openxmlformats"), dict(r.headers)
        with zipfile.ZipFile(io.BytesIO(got)) as z, zipfile.ZipFile(io.BytesIO(docx)) as orig:
            assert z.namelist() == orig.namelist()
            xml = z.read("word/document.xml").decode()
            assert "Please restart your computer" not in xml and "<w:b/>" in xml, xml
        assert srv.stop() == 0


def test_json_form_query_and_lists():
    with Server() as srv:
        s1, b1, h = translate(srv.url, SENTENCE)
        assert s1 == 200 and b1["translatedText"], b1
        assert h.get("Access-Control-Allow-Origin") == "*", h
        s2, b2, _ = translate(srv.url, [SENTENCE, "", "Print"])
        assert s2 == 200 and b2["translatedText"][0] == b1["translatedText"] and b2["translatedText"][1] == "", b2
        form = urllib.parse.urlencode({"q": SENTENCE, "source": "auto", "target": "de"}).encode()
        s3, b3, _ = request(srv.url + "/translate", form, "application/x-www-form-urlencoded")
        assert s3 == 200 and b3["translatedText"] == b1["translatedText"], b3
        assert b3["detectedLanguage"]["language"] == "en", b3
        q = urllib.parse.urlencode({"q": SENTENCE, "source": "en", "target": "de"})
        s4, b4, _ = request(srv.url + "/translate?" + q, b"", "text/plain", method="POST")
        assert s4 == 200 and b4["translatedText"] == b1["translatedText"], b4
        s5, b5, _ = translate(srv.url, "<p>" + SENTENCE + "</p>", format="html")
        assert s5 == 200 and b5["translatedText"].startswith("<p>") and b5["translatedText"].endswith("</p>"), b5
        s6, b6, _ = translate(srv.url, SENTENCE, alternatives=2)
        assert s6 == 200 and b6["translatedText"] == b1["translatedText"] and len(b6["alternatives"]) <= 2, b6
        s7, b7, _ = request(srv.url + "/health")
        assert s7 == 200 and b7["status"] == "ok", b7
        assert srv.stop() == 0


def test_malformed_input_never_kills_the_server():
    with Server("--max-body", "4096") as srv:
        bad_requests = [
            b"GARBAGE\r\n\r\n",
            b"POST /translate HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
            b"POST /translate HTTP/1.1\r\nContent-Length: -5\r\n\r\n{}",
            b"POST /translate HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
            b"POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"q\": [1, 2",
            b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\n" + b"X: " + b"b" * 20000 + b"\r\n\r\n",
            b"\x00\xff\xfe" * 1000,
            b"POST /translate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n" + b"[" * 5000,
        ]
        for data in bad_requests:
            out = raw(srv.port, data)
            if out:
                first = out.split(b"\r\n", 1)[0]
                assert first.startswith(b"HTTP/1.1 4") or first.startswith(b"HTTP/1.1 5"), (data[:60], out[:200])
        # Too large a body: 413 with a JSON error.
        status, body, _ = translate(srv.url, "a " * 3000)
        assert status == 413 and "error" in body, (status, body)
        for body in ({"q": 1, "source": "en", "target": "de"}, {"q": "x", "source": "en", "target": "zz"}, [1]):
            status, out, _ = request(srv.url + "/translate", body)
            assert status == 400 and "error" in out, (body, status, out)
        status, out, _ = translate(srv.url, SENTENCE)
        assert status == 200 and out["translatedText"], out
        assert srv.proc.poll() is None
        assert srv.stop() == 0


def test_concurrent_clients_and_api_keys():
    with tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False) as f:
        f.write("# keys\nk1\n")
        keys = f.name
    try:
        with Server("--api-keys", keys) as srv:
            status, out, _ = translate(srv.url, SENTENCE)
            assert status == 403, (status, out)
            status, ref, _ = translate(srv.url, SENTENCE, api_key="k1")
            assert status == 200
            results, errors = [], []

            def client():
                try:
                    for _ in range(3):
                        results.append(translate(srv.url, SENTENCE, api_key="k1"))
                except Exception as e:  # noqa: BLE001
                    errors.append(e)

            threads = [threading.Thread(target=client) for _ in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert not errors, errors
            assert len(results) == 48
            for status, out, _ in results:
                assert status == 200 and out["translatedText"] == ref["translatedText"], out
            assert srv.stop() == 0
    finally:
        os.unlink(keys)


def test_sigterm_finishes_requests_in_flight():
    # Generous limits: under qemu the 24 segments take about 40 s with the bundled model, and
    # what is tested is the draining, not the request timeout.
    with Server("--max-batch", "1", "--timeout", "600") as srv:
        box = {}

        def slow():
            box["r"] = request(srv.url + "/translate", {"q": [SENTENCE + " " + SENTENCE] * 24, "source": "en",
                                                        "target": "de"}, timeout=600)

        t = threading.Thread(target=slow)
        t.start()
        # Wait until the request is being translated, then stop the server.
        deadline = time.time() + 30
        while time.time() < deadline:
            status, h, _ = request(srv.url + "/health")
            if h["segments"] > 0 or h["queued_segments"] > 0:
                break
            time.sleep(0.005)
        srv.proc.send_signal(signal.SIGTERM)
        t.join(timeout=600)
        assert srv.proc.wait(timeout=600) == 0
        status, out, _ = box["r"]
        assert status == 200 and len(out["translatedText"]) == 24 and all(out["translatedText"]), out
        # Gone: new connections are refused.
        try:
            socket.create_connection(("127.0.0.1", srv.port), timeout=2).close()
            refused = False
        except OSError:
            refused = True
        assert refused


def test_listen_backlog_is_raised():
    """cpp-httplib listens with a backlog of 5: a burst of clients overflowed it and waited
    for TCP's 1 s / 3 s handshake retries. The server raises it (ss shows it as Send-Q)."""
    import shutil
    if not shutil.which("ss"):
        raise Skip("ss (iproute2) not installed")
    with Server() as srv:
        out = subprocess.run(["ss", "-ltnH", f"sport = :{srv.port}"], capture_output=True, text=True).stdout
        fields = out.split()
        assert len(fields) >= 3 and fields[0] == "LISTEN", out
        assert int(fields[2]) >= 128, out
        assert srv.stop() == 0


def test_bad_command_lines():
    for args in (["--port", "x"], ["--models", "/nonexistent"], ["--model", "/nonexistent.emt"], ["--bogus", "1"],
                 ["--config", "/nonexistent.conf"], ["--rerank-weight", "x"], ["--rerank-weight", "-1"],
                 ["--cache-size", "-1"], ["--cache-size", "many"]):
        p = subprocess.run([*EMULATOR, SERVER, *args], capture_output=True, text=True, timeout=60)
        assert p.returncode != 0 and "edgemt-server:" in p.stderr, (args, p.returncode, p.stderr)
    with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
        f.write("# edgemt-server config\nport = 0\nworkers = 1\nno-batching = true\n")
        conf = f.name
    try:
        p = subprocess.Popen([*EMULATOR, SERVER, "--config", conf, "--model", MODEL], stdout=subprocess.PIPE, text=True)
        line = p.stdout.readline()
        assert "batching off" in line, line
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=60) == 0
    finally:
        os.unlink(conf)


def test_cache_answers_a_repeated_request():
    """A request asked again is answered from the cache, with the same translations, and
    /health counts it (and the memory it takes); --cache-size 0 turns the cache off."""
    q = ["Save the document before closing the window.", "Print", "Save the document before closing the window."]
    for size, hits in (("4096", 3), ("0", 0)):
        with Server("--cache-size", size, "--cache-memory", "8") as srv:
            assert f"cache {size} segments, 8 MiB per model" in srv.first_line, srv.first_line
            s1, b1, _ = translate(srv.url, q)
            s2, b2, _ = translate(srv.url, q)
            assert s1 == 200 and s2 == 200 and b1 == b2, (b1, b2)
            assert b1["translatedText"][0] == b1["translatedText"][2], b1
            _, health, _ = request(srv.url + "/health")
            assert health["cache_hits"] == hits, health
            assert health["segments"] == (2 if hits else 6), health
            assert health["repeated_segments"] == (1 if hits else 0), health
            assert (health["cached_bytes"] > 0) == (hits > 0), health
            assert srv.stop() == 0


def test_rerank_from_the_config():
    """rerank = true in a config: the served pair whose reverse is served is reranked (and
    says so on standard error), and it translates."""
    reverse = os.path.join(os.path.dirname(MODEL), "edgemt-de-en.emt")
    if not os.path.exists(reverse):
        raise Skip("no edgemt-de-en.emt beside the model")
    with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
        f.write("port = 0\nrerank = true\nrerank-weight = 0.3\n")
        conf = f.name
    try:
        p = subprocess.Popen([*EMULATOR, SERVER, "--config", conf, "--model", MODEL, "--model", reverse],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = p.stdout.readline()
        port = int(line.split("http://")[1].split()[0].rsplit(":", 1)[1])
        body = json.dumps({"q": "The file could not be opened.", "source": "en", "target": "de"}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/translate", data=body,
                                     headers={"Content-Type": "application/json"})
        out = json.loads(urllib.request.urlopen(req, timeout=60).read())
        assert out["translatedText"].strip(), out
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=60) == 0
        err = p.stderr.read()
        assert "en->de reranked with" in err and "de->en reranked with" in err, err
    finally:
        os.unlink(conf)


def main():
    global SERVER, MODEL
    if len(sys.argv) == 3:
        SERVER, MODEL = sys.argv[1], sys.argv[2]
    if not SERVER or not MODEL:
        print(__doc__)
        return 2
    tests = [v for k, v in sorted(globals().items()) if k.startswith("test_") and callable(v)]
    only = [n for n in os.environ.get("EDGEMT_SERVER_TESTS", "").split(",") if n]
    if only:
        unknown = [n for n in only if "test_" + n not in {t.__name__ for t in tests}]
        if unknown:
            print("unknown tests in EDGEMT_SERVER_TESTS:", ", ".join(unknown))
            return 2
        tests = [t for t in tests if t.__name__[len("test_"):] in only]
    failed = skipped = 0
    for t in tests:
        # A test that hangs prints every thread's stack and fails the run (well before
        # ctest's timeout), so the hang is located rather than only timed out.
        faulthandler.dump_traceback_later(180, exit=True)
        try:
            t()
            print("ok", t.__name__)
        except Skip as e:
            skipped += 1
            print("skip", t.__name__, f"({e})")
        except Exception:  # noqa: BLE001
            failed += 1
            print("FAIL", t.__name__)
            traceback.print_exc()
    faulthandler.cancel_dump_traceback_later()
    print(f"{len(tests) - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
