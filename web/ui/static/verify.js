// verify.js checks an edition bundle in the reader's browser, written from
// docs/edition-bundle.md alone: it shares no code with the Go verifier
// (domain/bundle). It opens the zip itself (the central directory, then
// DecompressionStream for deflated entries), checks the Ed25519 signature
// with WebCrypto against the site's pinned key, every file's SHA-256, each
// event line's canonical bytes, and recomputes every edition's snapshot
// from the events. No framework, no build step.
"use strict";
(function () {
  var CHECKS = ["manifest", "signature", "files", "events", "snapshot", "evidence", "captures"];
  var FORMAT = "crossrank.bundle/v1";
  var DATA_FILES = ["events.jsonl", "evidence.jsonl", "captures.jsonl"];
  var EVENT_TYPES = {
    "crossrank.ranking.defined.v1": "defined",
    "crossrank.ranking.weights_set.v1": "weights",
    "crossrank.ranking.scenarios_set.v1": "scenarios",
    "crossrank.ranking.methodology_published.v1": "methodology",
    "crossrank.edition.part_recorded.v1": "part",
    "crossrank.edition.published.v1": "head"
  };
  var EVIDENCE_TYPES = {
    "crossrank.proposal.evidence_added.v1": "added",
    "crossrank.proposal.evidence_added.v2": "added",
    "crossrank.proposal.evidence_added.v3": "added",
    "crossrank.proposal.evidence_captured.v1": "captured"
  };
  var SLUG = /^[a-z0-9_-]{1,80}$/;
  var HEX64 = /^[0-9a-f]{64}$/;

  // ---- messages ----

  // Every line a reader sees is a message: a key of the page's catalog
  // (web/i18n, "verify.d." keys, sent in the page as JSON) and its
  // arguments, worded only when shown, in the page's language. An argument
  // may itself be a message.
  function M(key) { return { key: key, args: Array.prototype.slice.call(arguments, 1) }; }
  // Ms is the list items (messages) joined by the catalog's separator sep.
  function Ms(sep, items) { return { join: sep, items: items }; }
  // E is an error carrying message M(key, args…).
  function E() {
    var err = new Error(arguments[0]);
    err.msg = M.apply(null, arguments);
    return err;
  }
  // msgOf is err's message; an error of the browser's own (not one of
  // ours) is shown in the browser's words inside the catalog's.
  function msgOf(err) { return err && err.msg ? err.msg : M("unexpected", String(err && err.message || err)); }

  // word writes message m from catalog words: fmt's verbs %s and %d, and
  // %[n]s to reorder them, as the Go side writes the same catalogs. A key
  // the catalog lacks shows as itself and its arguments.
  function word(words, m) {
    if (m === null || typeof m !== "object") return String(m);
    if (m.join) return m.items.map(function (i) { return word(words, i); }).join(words && words[m.join] || ", ");
    var args = m.args.map(function (a) { return word(words, a); });
    var f = words && words[m.key];
    if (typeof f !== "string") return [m.key].concat(args).join(" ");
    var next = 0;
    return f.replace(/%(?:\[(\d+)\])?([sd%])/g, function (_, n, verb) {
      if (verb === "%") return "%";
      if (n) next = +n - 1;
      return args[next++];
    });
  }

  // ---- bytes ----

  var utf8 = new TextDecoder("utf-8", { fatal: true });
  var enc = new TextEncoder();

  function hex(buf) {
    var b = new Uint8Array(buf), s = "";
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? "0" : "") + b[i].toString(16);
    return s;
  }
  async function sha256(bytes) { return hex(await crypto.subtle.digest("SHA-256", bytes)); }

  function b64decode(s, url) {
    if (url) {
      if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw E("not_base64url");
      s = s.replace(/-/g, "+").replace(/_/g, "/");
      while (s.length % 4) s += "=";
    } else if (!/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) {
      throw E("not_base64");
    }
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function b64url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  var CRC = (function () {
    var t = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })();
  function crc32(b) {
    var c = 0xffffffff;
    for (var i = 0; i < b.length; i++) c = CRC[(c ^ b[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  // ---- the zip: the central directory, zip64 where a field overflows ----

  function readZip(buf) {
    var b = new Uint8Array(buf), dv = new DataView(buf);
    var u16 = function (o) { return dv.getUint16(o, true); };
    var u32 = function (o) { return dv.getUint32(o, true); };
    var u64 = function (o) { return u32(o) + u32(o + 4) * 4294967296; };
    var eocd = -1;
    for (var i = b.length - 22; i >= 0 && i >= b.length - 22 - 65535; i--) {
      if (u32(i) === 0x06054b50) { eocd = i; break; }
    }
    if (eocd < 0) throw E("zip_no_end");
    var count = u16(eocd + 10), cdOff = u32(eocd + 16);
    if (count === 0xffff || cdOff === 0xffffffff) {
      var loc = eocd - 20;
      if (loc < 0 || u32(loc) !== 0x07064b50) throw E("zip64_locator");
      var z = u64(loc + 8);
      if (u32(z) !== 0x06064b50) throw E("zip64_end");
      count = u64(z + 32); cdOff = u64(z + 48);
    }
    var entries = [], p = cdOff;
    for (var n = 0; n < count; n++) {
      if (p + 46 > b.length || u32(p) !== 0x02014b50) throw E("zip_bad_entry", n);
      var method = u16(p + 10), crc = u32(p + 16), csize = u32(p + 20), usize = u32(p + 24);
      var nlen = u16(p + 28), xlen = u16(p + 30), clen = u16(p + 32), off = u32(p + 42);
      var name = utf8.decode(b.subarray(p + 46, p + 46 + nlen));
      var x = p + 46 + nlen, xend = x + xlen;
      while (x + 4 <= xend) {
        var id = u16(x), size = u16(x + 2), q = x + 4;
        if (id === 0x0001) {
          if (usize === 0xffffffff) { usize = u64(q); q += 8; }
          if (csize === 0xffffffff) { csize = u64(q); q += 8; }
          if (off === 0xffffffff) { off = u64(q); q += 8; }
        }
        x += 4 + size;
      }
      entries.push({ name: name, method: method, crc: crc, csize: csize, usize: usize, off: off });
      p = xend + clen;
    }
    return { bytes: b, u16: u16, u32: u32, entries: entries };
  }

  async function inflate(data) {
    var ds = new DecompressionStream("deflate-raw");
    var out = await new Response(new Blob([data]).stream().pipeThrough(ds)).arrayBuffer();
    return new Uint8Array(out);
  }

  async function entryBytes(z, e) {
    if (z.u32(e.off) !== 0x04034b50) throw E("local_header", e.name);
    var start = e.off + 30 + z.u16(e.off + 26) + z.u16(e.off + 28);
    var data = z.bytes.subarray(start, start + e.csize);
    var out;
    if (e.method === 0) out = data;
    else if (e.method === 8) out = await inflate(data);
    else throw E("method", e.name, e.method);
    if (out.length !== e.usize || crc32(out) !== e.crc) throw E("zip_checksum", e.name);
    return out;
  }

  // ---- strict JSON: no duplicate key, no lone surrogate, integers only ----

  function parseJSON(text) {
    var i = 0, depth = 0;
    function fail(key, arg) { throw E("json", i, arg === undefined ? M("json." + key) : M("json." + key, arg)); }
    function ws() { while (i < text.length && " \t\n\r".indexOf(text[i]) >= 0) i++; }
    function str() {
      if (text[i] !== '"') fail("string_expected");
      i++;
      var out = "";
      for (;;) {
        if (i >= text.length) fail("unterminated");
        var c = text.charCodeAt(i);
        if (c === 34) { i++; return out; }
        if (c < 0x20) fail("control");
        if (c !== 92) { out += text[i++]; continue; }
        var e = text[i + 1];
        i += 2;
        var simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
        if (simple !== undefined) { out += simple; continue; }
        if (e !== "u") fail("bad_escape");
        var u = hexUnit();
        if (u >= 0xd800 && u <= 0xdbff) {
          if (text.substr(i, 2) !== "\\u") fail("surrogate");
          i += 2;
          var lo = hexUnit();
          if (lo < 0xdc00 || lo > 0xdfff) fail("surrogate");
          out += String.fromCharCode(u, lo);
        } else if (u >= 0xdc00 && u <= 0xdfff) {
          fail("surrogate");
        } else out += String.fromCharCode(u);
      }
    }
    function hexUnit() {
      var h = text.substr(i, 4);
      if (!/^[0-9a-fA-F]{4}$/.test(h)) fail("bad_u");
      i += 4;
      return parseInt(h, 16);
    }
    function value() {
      ws();
      var c = text[i];
      if (c === "{" || c === "[") {
        if (++depth > 64) fail("deep");
        var v = c === "{" ? obj() : arr();
        depth--;
        return v;
      }
      if (c === '"') return str();
      var m = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 40));
      if (!m) fail("unexpected");
      i += m[0].length;
      if (m[0] === "true") return true;
      if (m[0] === "false") return false;
      if (m[0] === "null") return null;
      if (m[1] || m[2]) fail("not_integer");
      var n = Number(m[0]);
      if (!Number.isSafeInteger(n)) fail("range");
      return n;
    }
    function obj() {
      i++;
      var o = Object.create(null);
      ws();
      if (text[i] === "}") { i++; return o; }
      for (;;) {
        ws();
        var k = str();
        if (Object.prototype.hasOwnProperty.call(o, k)) fail("duplicate", JSON.stringify(k));
        ws();
        if (text[i++] !== ":") fail("colon");
        o[k] = value();
        ws();
        var c = text[i++];
        if (c === "}") return o;
        if (c !== ",") fail("comma_object");
      }
    }
    function arr() {
      i++;
      var a = [];
      ws();
      if (text[i] === "]") { i++; return a; }
      for (;;) {
        a.push(value());
        ws();
        var c = text[i++];
        if (c === "]") return a;
        if (c !== ",") fail("comma_array");
      }
    }
    var v = value();
    ws();
    if (i !== text.length) fail("trailing");
    return v;
  }

  // compact reports whether JSON text has no whitespace outside strings.
  function compact(text) {
    var inStr = false;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (inStr) {
        if (c === "\\") i++;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === " " || c === "\t" || c === "\n" || c === "\r") return false;
    }
    return true;
  }

  // Typed reads of a body: absent or null is the zero value; another type
  // is an error, as the specification's "the body reads".
  function has(o, k) { return o !== null && typeof o === "object" && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, k) && o[k] !== null; }
  function need(v, type, what) {
    var ok = type === "array" ? Array.isArray(v) : type === "object" ? v !== null && typeof v === "object" && !Array.isArray(v) : typeof v === type;
    if (!ok) throw E("not_" + type, what);
    return v;
  }
  function int(o, k) { return has(o, k) ? need(o[k], "number", k) : 0; }
  function str(o, k) { return has(o, k) ? need(o[k], "string", k) : ""; }
  function list(o, k) { return has(o, k) ? need(o[k], "array", k) : []; }
  function object(o, k) { return has(o, k) ? need(o[k], "object", k) : Object.create(null); }
  function strings(o, k) { return list(o, k).map(function (s) { return need(s, "string", k + "[]"); }); }
  function intMap(o, k) {
    var m = object(o, k), out = new Map();
    Object.keys(m).forEach(function (c) { out.set(c, m[c] === null ? 0 : need(m[c], "number", k + "." + c)); });
    return out;
  }

  // ---- the string rule (Go's encoding/json) ----

  function goString(s) {
    var out = '"';
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i), ch = s[i];
      if (c === 34) out += '\\"';
      else if (c === 92) out += "\\\\";
      else if (c === 10) out += "\\n";
      else if (c === 13) out += "\\r";
      else if (c === 9) out += "\\t";
      else if (c === 8) out += "\\b";
      else if (c === 12) out += "\\f";
      else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += "\\u" + ("000" + c.toString(16)).slice(-4);
      else out += ch;
    }
    return out + '"';
  }

  // Code-point order (UTF-8 byte order), not UTF-16's.
  function unit(u) { return u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u; }
  function cmp(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x !== y) return unit(x) - unit(y);
    }
    return a.length - b.length;
  }

  // ---- event lines ----

  var TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d*[1-9])?Z$/;
  function canonicalTime(t) {
    var m = TIME.exec(t);
    if (!m) return false;
    var d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
    return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] &&
      d.getUTCHours() === +m[4] && d.getUTCMinutes() === +m[5] && d.getUTCSeconds() === +m[6] && (!m[7] || m[7].length <= 10);
  }

  // readEvent parses one line and checks it is the canonical bytes of the
  // event it holds; types maps the allowed types to their kind.
  function readEvent(line, types) {
    var e = parseJSON(line);
    need(e, "object", "the line");
    if (typeof e.seq !== "number" || e.seq < 0) throw E("seq");
    var names = ["id", "source", "type", "subject", "datacontenttype", "time", "actor", "correlationid", "causationid"];
    var prefix = '{"seq":' + e.seq;
    names.forEach(function (k) {
      if (typeof e[k] !== "string") throw E("missing_field", k);
      prefix += ',"' + k + '":' + goString(e[k]);
    });
    if (has(e, "authvia")) prefix += ',"authvia":' + goString(need(e.authvia, "string", "authvia"));
    prefix += ',"data":';
    if (!line.startsWith(prefix) || line[line.length - 1] !== "}") throw E("not_canonical");
    var data = line.slice(prefix.length, -1);
    if (!compact(data) || !has(e, "data") || typeof e.data !== "object") throw E("not_canonical");
    if (!e.id || !e.source || !SLUG.test(e.subject) || e.datacontenttype !== "application/json") throw E("envelope");
    if (!canonicalTime(e.time)) throw E("time", e.time);
    var kind = types[e.type];
    if (!kind) throw E("type", e.type);
    return { seq: e.seq, type: e.type, subject: e.subject, kind: kind, data: need(e.data, "object", "data") };
  }

  function lines(bytes) {
    var text = utf8.decode(bytes);
    if (text === "") return [];
    if (text[text.length - 1] !== "\n") throw E("newline");
    return text.slice(0, -1).split("\n");
  }

  // ---- the snapshot ----

  // readLists reads an edition's (or a part's) lists whole, before any of
  // it is applied: a body that does not read is refused entire.
  function readLists(d) {
    return {
      proposals: strings(d, "proposals"),
      newEntries: list(d, "new_entries").map(function (ne) {
        var name = object(ne, "name");
        return { slug: str(ne, "slug"), zh: str(name, "zh"), en: str(name, "en"), category: str(ne, "category") };
      }),
      changes: list(d, "changes").map(function (c) {
        return { proposal: str(c, "proposal"), entry: str(c, "entry"), target: str(c, "target"),
          toScore: has(c, "to_score") ? need(c.to_score, "number", "to_score") : null, toTags: strings(c, "to_tags"), evidence: strings(c, "evidence") };
      })
    };
  }

  function applyLists(ed, l) {
    l.newEntries.forEach(function (ne) {
      ed.entries.set(ne.slug, { slug: ne.slug, zh: ne.zh, en: ne.en, category: ne.category, scores: new Map(), attributes: new Map() });
    });
    l.changes.forEach(function (c) {
      var e = ed.entries.get(c.entry);
      if (!e) return;
      var t = c.target, at = t.indexOf(":");
      var kind = at >= 0 && t.slice(0, at) === "attr" ? "attr" : "score";
      var key = at >= 0 ? t.slice(at + 1) : t;
      if (kind === "score") {
        if (c.toScore !== null) e.scores.set(key, c.toScore);
        else e.scores.delete(key);
      } else if (c.toTags.length === 0) e.attributes.delete(key);
      else e.attributes.set(key, c.toTags.slice());
    });
  }

  function standings(entries, weights) {
    var out = [];
    entries.forEach(function (e) {
      var total = 0;
      weights.forEach(function (w, c) { total += w * (e.scores.get(c) || 0); });
      out.push({ e: e, total: total });
    });
    out.sort(function (a, b) { return b.total - a.total || cmp(a.e.slug, b.e.slug); });
    var perCat = new Map();
    out.forEach(function (s, i) {
      s.rank = i + 1;
      s.categoryRank = (perCat.get(s.e.category) || 0) + 1;
      perCat.set(s.e.category, s.categoryRank);
    });
    return out;
  }

  function named(map) {
    return "[" + Array.from(map.keys()).sort(cmp).map(function (k) {
      return '{"name":' + goString(k) + ',"value":' + map.get(k) + "}";
    }).join(",") + "]";
  }

  function snapshot(rk, ed) {
    var weights = new Map();
    rk.criteria.forEach(function (c) { weights.set(c.slug, c.weight); });
    var entries = standings(ed.entries, weights).map(function (s) {
      var e = s.e;
      var attrs = Array.from(e.attributes.keys()).sort(cmp).map(function (k) {
        return '{"name":' + goString(k) + ',"tags":[' + e.attributes.get(k).slice().sort(cmp).map(goString).join(",") + "]}";
      });
      return '{"slug":' + goString(e.slug) + ',"name":{"zh":' + goString(e.zh) + ',"en":' + goString(e.en) + '},"category":' + goString(e.category) +
        ',"scores":' + named(e.scores) + ',"attributes":[' + attrs.join(",") + '],"total":' + s.total + ',"rank":' + s.rank + ',"category_rank":' + s.categoryRank + "}";
    });
    var scen = rk.scenarios.slice().sort(function (a, b) { return cmp(a.slug, b.slug); }).map(function (sc) {
      return '{"slug":' + goString(sc.slug) + ',"order":[' + standings(ed.entries, sc.weights).map(function (s) { return goString(s.e.slug); }).join(",") + "]}";
    });
    return '{"ranking":' + goString(rk.slug) + ',"edition":' + ed.number + ',"weights":' + named(weights) +
      ',"entries":[' + entries.join(",") + '],"scenarios":[' + scen.join(",") + "]}";
  }

  function criteriaOf(o) {
    return list(o, "criteria").map(function (c) { return { slug: str(c, "slug"), weight: int(c, "weight") }; });
  }
  function scenariosOf(o) {
    return list(o, "scenarios").map(function (s) { return { slug: str(s, "slug"), weights: intMap(s, "weights") }; });
  }

  // ---- the checks ----

  function Verifier(onCheck, words) {
    this.fails = {}; this.passes = {}; this.onCheck = onCheck || function () {}; this.words = words;
    this.reported = 0; this.checks = []; this.snapshots = [];
  }
  Verifier.prototype.fail = function (check, msg) { (this.fails[check] = this.fails[check] || []).push(msg); };
  Verifier.prototype.pass = function (check, msg) { this.passes[check] = msg; };
  // report emits the checks up to and including upTo, in order.
  Verifier.prototype.report = function (upTo) {
    var end = CHECKS.indexOf(upTo);
    for (; this.reported <= end; this.reported++) {
      var name = CHECKS[this.reported], f = this.fails[name];
      var shown = f && f.length > 5 ? f.slice(0, 5).concat([M("more", f.length - 5)]) : f;
      var c = f ? { name: name, ok: false, detail: word(this.words, Ms("sep", shown)) }
        : this.passes[name] !== undefined ? { name: name, ok: true, detail: word(this.words, this.passes[name]) } : null;
      if (c) { this.checks.push(c); this.onCheck(c); }
    }
  };

  async function pinnedKey(keyJSON) {
    var k = typeof keyJSON === "string" ? parseJSON(keyJSON) : keyJSON;
    if (k && Array.isArray(k.keys)) {
      if (k.keys.length !== 1) throw E("keyset", k.keys.length);
      k = k.keys[0];
    }
    return jwkBytes(k);
  }

  async function jwkBytes(k) {
    if (!k || k.kty !== "OKP" || k.crv !== "Ed25519") throw E("not_jwk");
    var x = b64decode(need(k.x, "string", "x"), true);
    if (x.length !== 32) throw E("x_size");
    var thumb = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode('{"crv":"Ed25519","kty":"OKP","x":"' + k.x + '"}'))));
    if (has(k, "kid") && k.kid !== "" && k.kid !== thumb) throw E("kid", k.kid, thumb);
    return { x: x, kid: thumb };
  }

  function closed(o, allowed, what) {
    Object.keys(o).forEach(function (k) { if (allowed.indexOf(k) < 0) throw E("unknown_member", what, JSON.stringify(k)); });
  }

  function manifestOf(bytes) {
    var m = need(parseJSON(utf8.decode(bytes)), "object", "manifest.json");
    closed(m, ["format", "ranking", "edition", "snapshot_hash", "sequence", "published_at", "key", "files"], "manifest.json");
    closed(object(m, "key"), ["kty", "crv", "x", "kid", "use", "alg"], "key");
    var files = list(m, "files").map(function (f) {
      need(f, "object", "files[]");
      closed(f, ["name", "sha256", "size", "lines"], "files[]");
      return { name: str(f, "name"), sha256: str(f, "sha256"), size: int(f, "size") };
    });
    return { format: str(m, "format"), ranking: str(m, "ranking"), edition: int(m, "edition"), snapshotHash: str(m, "snapshot_hash"),
      sequence: int(m, "sequence"), publishedAt: str(m, "published_at"), key: object(m, "key"), files: files };
  }

  // verify checks a bundle (an ArrayBuffer) against the pinned key (a JWK
  // set, a JWK, or its JSON text), calling onCheck with each check as it is
  // decided, in the specification's order, its detail worded from words
  // (the page's catalog; without one, message keys and their arguments).
  async function verify(buf, key, onCheck, words) {
    var v = new Verifier(onCheck, words), z, files = new Map(), m;
    try {
      z = readZip(buf);
      z.entries.forEach(function (e) {
        if (files.has(e.name)) v.fail("files", M("twice", e.name));
        files.set(e.name, e);
      });
      var mf = files.get("manifest.json");
      if (!mf) throw E("missing_file", "manifest.json");
      var manifestBytes = await entryBytes(z, mf);
      m = manifestOf(manifestBytes);
      if (m.format !== FORMAT) throw E("format", JSON.stringify(m.format), FORMAT);
      if (!SLUG.test(m.ranking) || m.edition < 1) throw E("ranking_edition", JSON.stringify(m.ranking), m.edition);
      v.pass("manifest", M("pass.manifest", FORMAT, m.ranking, m.edition));
    } catch (err) {
      v.fail("manifest", msgOf(err));
      v.report("captures");
      return { ok: false, checks: v.checks, snapshots: [] };
    }
    v.report("manifest");

    await checkSignature(v, z, files, m, manifestBytes, key);
    v.report("signature");

    var data = {};
    for (var i = 0; i < DATA_FILES.length; i++) {
      var name = DATA_FILES[i], e = files.get(name);
      if (!e) { v.fail("files", M("missing_file", name)); continue; }
      try {
        var b = await entryBytes(z, e);
        data[name] = { bytes: b, sha256: await sha256(b) };
      } catch (err) { v.fail("files", msgOf(err)); }
    }
    checkFiles(v, files, m, data);
    v.report("files");

    var ev = { added: new Set(), captured: [] };
    readEvidence(v, m, data["evidence.jsonl"], ev);
    await replay(v, m, data["events.jsonl"], ev);
    checkCaptures(v, data["captures.jsonl"], ev);
    v.report("captures");
    var ok = v.checks.every(function (c) { return c.ok; });
    return { ok: ok, checks: v.checks, snapshots: v.snapshots, manifest: m };
  }

  async function checkSignature(v, z, files, m, manifestBytes, key) {
    try {
      var carried = await jwkBytes(m.key);
      var pinned = await pinnedKey(key);
      if (hex(pinned.x) !== hex(carried.x)) throw E("other_key", String(m.key.kid).slice(0, 12) + "…", pinned.kid.slice(0, 12) + "…");
      var sf = files.get("signature.json");
      if (!sf) throw E("missing_file", "signature.json");
      var s = need(parseJSON(utf8.decode(await entryBytes(z, sf))), "object", "signature.json");
      closed(s, ["alg", "kid", "signature"], "signature.json");
      if (str(s, "alg") !== "EdDSA" || str(s, "kid") !== str(m.key, "kid")) throw E("signature_names", JSON.stringify(s.alg), JSON.stringify(s.kid));
      var sig;
      try { sig = b64decode(str(s, "signature"), false); } catch (err) { sig = null; }
      if (!sig || sig.length !== 64) throw E("signature_size");
      var k = await crypto.subtle.importKey("raw", pinned.x, { name: "Ed25519" }, false, ["verify"]);
      if (!(await crypto.subtle.verify({ name: "Ed25519" }, k, sig, manifestBytes))) {
        throw E("signature_bad", pinned.kid.slice(0, 12) + "…");
      }
      v.pass("signature", M("pass.signature", pinned.kid.slice(0, 12) + "…"));
    } catch (err) { v.fail("signature", msgOf(err)); }
  }

  function checkFiles(v, files, m, data) {
    var listed = new Map(), ok = [];
    m.files.forEach(function (f) { listed.set(f.name, f); });
    DATA_FILES.forEach(function (name) {
      var w = listed.get(name), g = data[name];
      if (!w) v.fail("files", M("not_listed_data", name));
      else if (g && (g.sha256 !== w.sha256 || g.bytes.length !== w.size)) {
        v.fail("files", M("digest", name, g.sha256.slice(0, 12) + "…", g.bytes.length, w.sha256.slice(0, 12) + "…", w.size));
      } else if (g) ok.push(M("file_digest", name, g.sha256.slice(0, 12) + "…"));
      listed.delete(name);
    });
    listed.forEach(function (_, name) { v.fail("files", M("listed_absent", name)); });
    files.forEach(function (_, name) {
      if (DATA_FILES.indexOf(name) < 0 && name !== "manifest.json" && name !== "signature.json") v.fail("files", M("unlisted", name));
    });
    v.pass("files", M("pass.files", Ms("list_sep", ok)));
  }

  function readEvidence(v, m, file, ev) {
    var last = 0, items = 0;
    if (file) {
      var ls;
      try { ls = lines(file.bytes); } catch (err) { v.fail("evidence", M("in_file", "evidence.jsonl", msgOf(err))); ls = []; }
      ls.forEach(function (line, n) {
        try {
          var e = readEvent(line, EVIDENCE_TYPES);
          if (e.seq <= last || e.seq > m.sequence) v.fail("evidence", M("at_line", "evidence.jsonl", n + 1, M("seq_order", e.seq, m.sequence)));
          last = e.seq;
          if (e.kind === "added") {
            ev.added.add(e.subject + "/" + str(e.data, "evidence_id"));
            items++;
          } else {
            ev.captured.push({ proposal: e.subject, evidence: str(e.data, "evidence_id"), sha256: str(e.data, "sha256"), url: str(e.data, "url"), fetched_at: str(e.data, "fetched_at") });
          }
        } catch (err) { v.fail("evidence", M("at_line", "evidence.jsonl", n + 1, msgOf(err))); }
      });
    }
    v.pass("evidence", M("pass.evidence", items));
  }

  function cites(v, ev, number, l) {
    l.changes.forEach(function (c) {
      c.evidence.forEach(function (id) {
        if (!ev.added.has(c.proposal + "/" + id)) {
          v.fail("evidence", M("cites", number, c.target, c.entry, c.proposal, id));
        }
      });
    });
  }

  async function replay(v, m, file, ev) {
    var rk = { slug: "", criteria: [], scenarios: [] };
    var ed = { number: 0, entries: new Map() };
    var parts = null, last = 0, head = null, heads = 0;
    var ls = [];
    if (file) {
      try { ls = lines(file.bytes); } catch (err) { v.fail("events", M("in_file", "events.jsonl", msgOf(err))); }
    }
    for (var n = 0; n < ls.length; n++) {
      var e;
      try {
        e = readEvent(ls[n], EVENT_TYPES);
      } catch (err) { v.fail("events", M("at_line", "events.jsonl", n + 1, msgOf(err))); continue; }
      if (e.seq <= last || e.seq > m.sequence) v.fail("events", M("at_line", "events.jsonl", n + 1, M("seq_order", e.seq, m.sequence)));
      last = e.seq;
      if (e.subject !== m.ranking) { v.fail("events", M("at_line", "events.jsonl", n + 1, M("other_ranking", e.subject, m.ranking))); continue; }
      try {
        var d = e.data;
        switch (e.kind) {
          case "defined": rk.slug = str(d, "slug"); rk.criteria = criteriaOf(d); break;
          case "weights": {
            var w = intMap(d, "weights");
            rk.criteria = rk.criteria.map(function (c) { return { slug: c.slug, weight: w.get(c.slug) || 0 }; });
            break;
          }
          case "scenarios": rk.scenarios = scenariosOf(d); break;
          case "methodology": {
            var meth = object(d, "methodology");
            rk.slug = str(d, "slug"); rk.criteria = criteriaOf(meth); rk.scenarios = scenariosOf(meth);
            break;
          }
          case "part": {
            var num = int(d, "number"), pl = readLists(d);
            if (!parts || parts.number !== num) parts = { number: num, parts: 0, proposals: 0, new_entries: 0, changes: 0 };
            parts.parts++;
            parts.proposals += pl.proposals.length;
            parts.new_entries += pl.newEntries.length;
            parts.changes += pl.changes.length;
            cites(v, ev, num, pl);
            applyLists(ed, pl);
            break;
          }
          case "head": {
            var number = int(d, "number"), hl = readLists(d), size = object(d, "size"), committed = str(d, "snapshot_hash");
            cites(v, ev, number, hl);
            if (has(d, "size")) {
              var got = parts && parts.number === number ? parts : { parts: 0, proposals: 0, new_entries: 0, changes: 0 };
              if (["parts", "proposals", "new_entries", "changes"].some(function (k) { return int(size, k) !== got[k]; })) {
                v.fail("events", M("parts", number, int(size, "parts"), int(size, "changes"), got.parts, got.changes));
              }
            } else {
              parts = null;
              applyLists(ed, hl);
            }
            ed.number = number;
            var json = snapshot(rk, ed), hash = await sha256(enc.encode(json));
            v.snapshots.push({ edition: number, hash: hash, json: json });
            if (hash !== committed) v.fail("snapshot", M("snapshot_mismatch", number, committed.slice(0, 12) + "…", hash.slice(0, 12) + "…"));
            head = { number: number, hash: committed };
            heads++;
            break;
          }
        }
      } catch (err) { v.fail("events", M("at_line", "events.jsonl", n + 1, msgOf(err))); }
    }
    if (!head) { v.fail("snapshot", M("no_edition")); return; }
    if (head.number !== m.edition || last !== m.sequence) v.fail("events", M("last_edition", head.number, last, m.edition, m.sequence));
    else if (head.hash !== m.snapshotHash) v.fail("snapshot", M("manifest_snapshot", m.snapshotHash.slice(0, 12) + "…", m.edition, head.hash.slice(0, 12) + "…"));
    v.pass("events", M("pass.events", m.ranking, heads, m.sequence));
    v.pass("snapshot", M("pass.snapshot", m.edition, m.snapshotHash.slice(0, 12) + "…"));
  }

  function checkCaptures(v, file, ev) {
    var n = 0;
    if (file) {
      var ls = [];
      try { ls = lines(file.bytes); } catch (err) { v.fail("captures", M("in_file", "captures.jsonl", msgOf(err))); }
      ls.forEach(function (line, i) {
        n = i + 1;
        try {
          var c = need(parseJSON(line), "object", "the line");
          closed(c, ["proposal", "evidence", "sha256", "url", "fetched_at"], "the line");
          var got = { proposal: str(c, "proposal"), evidence: str(c, "evidence"), sha256: str(c, "sha256"), url: str(c, "url"), fetched_at: str(c, "fetched_at") };
          var want = ev.captured[i];
          if (!HEX64.test(got.sha256)) v.fail("captures", M("at_line", "captures.jsonl", n, M("not_hex", JSON.stringify(got.sha256))));
          else if (!want) v.fail("captures", M("at_line", "captures.jsonl", n, M("capture_unrecorded", got.sha256.slice(0, 12) + "…", got.evidence, got.proposal)));
          else if (Object.keys(want).some(function (k) { return want[k] !== got[k]; })) {
            v.fail("captures", M("at_line", "captures.jsonl", n, M("capture_other", got.sha256.slice(0, 12) + "…", got.evidence, got.proposal, want.sha256.slice(0, 12) + "…", want.evidence, want.proposal)));
          }
        } catch (err) { v.fail("captures", M("at_line", "captures.jsonl", n, msgOf(err))); }
      });
    }
    if (n < ev.captured.length) {
      var w = ev.captured[n];
      v.fail("captures", M("capture_unlisted", w.sha256.slice(0, 12) + "…", w.evidence, w.proposal));
    }
    v.pass("captures", M("pass.captures", ev.captured.length));
  }

  // ---- the page ----

  async function run(root) {
    var items = {};
    root.querySelectorAll("[data-check]").forEach(function (li) { items[li.getAttribute("data-check")] = li; });
    var status = root.querySelector("[data-testid='verify-status']");
    var say = function (key) { status.textContent = root.getAttribute("data-say-" + key) || key; status.setAttribute("data-state", key); };
    var words = JSON.parse(document.getElementById("verify-words").textContent);
    say("running");
    try {
      var got = await Promise.all([fetch(root.getAttribute("data-bundle")), fetch(root.getAttribute("data-key"))]);
      if (!got[0].ok || !got[1].ok) throw E("download", got[0].status, got[1].status);
      var buf = await got[0].arrayBuffer(), key = await got[1].text();
      var res = await verify(buf, key, function (c) {
        var li = items[c.name];
        if (!li) return;
        li.setAttribute("data-state", c.ok ? "pass" : "fail");
        li.querySelector("[data-mark]").textContent = c.ok ? "✓" : "✗";
        li.querySelector("[data-detail]").textContent = c.detail;
      }, words);
      say(res.ok ? "pass" : "fail");
    } catch (err) {
      say("error");
      status.textContent += " " + word(words, msgOf(err));
    }
  }

  window.CrossrankVerify = { verify: verify, checks: CHECKS };
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-testid='verify']");
    if (root && root.hasAttribute("data-bundle")) run(root);
  });
})();
