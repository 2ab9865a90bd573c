/* mjenv viewer: draws the frames that mjenv.render.html computed; no mahjong logic here.
 *
 * The data (the JSON of the element #mjview-data) holds every hand's frames: per event, four
 * indices into the hand's table of seat states, the wall count and what to highlight. This
 * script draws one frame as SVG (each seat in its own coordinates, as if it sat at the bottom,
 * then rotated to its side of the table), fills the side panel, and answers the controls.
 * window.mjview is the hook for tests and for the curious: state(), go(step), hand(i).
 */
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("mjview-data").textContent);
  // a tile (the symbols are 30 x 43 units, drawn 1.2 times as large), the pitch of upright
  // and of lying tiles; each seat's rows are laid out for the bottom of a 1000-unit table and
  // end before the corner (MELD_RIGHT < HAND_Y), so that the four rotated copies never meet
  var TW = 36, TH = 48, TD = 3.6, P = 37, LY = TH + TD + 1;
  var HAND_X = 80, HAND_Y = 932, MELD_RIGHT = 925, FLOWER_Y = HAND_Y - 46;
  var RIVER_X = 500 - 3 * P, RIVER_Y = 614;
  var WINDS = "東南西北", WIND_EN = ["East", "South", "West", "North"];
  var RELATIVE = ["", "next 下家", "opposite 对家", "previous 上家"];
  var view = { hand: 0, step: 0, timer: null, hideResult: false };

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function hand() { return DATA.hands[view.hand]; }
  function frame() { return hand().frames[view.step]; }
  function lastStep() { return hand().frames.length - 1; }
  function bottomSeat() { return DATA.seat === null ? 0 : DATA.seat; }
  function pos(s) { return (s - bottomSeat() + 4) % 4; }   // 0 bottom, 1 right, 2 top, 3 left
  function seatWind(h, s) { return (s - h.dealer + 4) % 4; }
  function seatName(h, s) { return "S" + s + " " + WINDS[seatWind(h, s)]; }
  function signed(v) { return (v > 0 ? "+" : v < 0 ? "\u2212" : "\u00b10") + Math.abs(v); }

  // ------------------------------------------------------------------ tiles
  // o: x, y, code (null: a back), back (draw a back but keep the code), lying, flip, scale,
  //    hl, cls, title, data (data-* attributes)
  function tile(o) {
    var tr = "translate(" + o.x + "," + o.y + ")";
    if (o.scale) tr += " scale(" + o.scale + ")";
    if (o.lying) tr += " translate(0," + (TH + TD) + ") rotate(-90)";
    if (o.flip) tr += " rotate(180 " + TW / 2 + " " + (TH + TD) / 2 + ")";
    var attrs = "";
    var data = o.data || {};
    for (var k in data) {
      if (Object.prototype.hasOwnProperty.call(data, k)) attrs += " data-" + k + '="' + esc(data[k]) + '"';
    }
    attrs += o.code ? ' data-tile="' + o.code + '"' : ' data-hidden="1"';
    var ref = o.code && !o.back ? "t-" + o.code : "t-back";
    var cls = "tile" + (o.hl ? " hl" : "") + (o.cls ? " " + o.cls : "");
    return '<g class="' + cls + '"' + attrs + ' transform="' + tr + '">' +
      (o.title ? "<title>" + esc(o.title) + "</title>" : "") +
      (o.hl ? '<rect class="hlr" x="-2.5" y="-2.5" width="' + (TW + 5) + '" height="' +
        (TH + TD + 5) + '" rx="6"/>' : "") +
      '<use href="#' + ref + '" width="' + TW + '" height="' + (TH + TD) + '"/></g>';
  }

  function arrow(cx, cy, rel) {
    var pts = rel === 3 ? "-6,0 4,-6 4,6" : rel === 1 ? "6,0 -4,-6 -4,6" : "0,-6 -6,4 6,4";
    return '<polygon class="from" points="' + pts + '" transform="translate(' + cx + "," + cy +
      ')" fill="#ffd54a" stroke="#5a4500" stroke-width="0.8"/>';
  }

  // ------------------------------------------------------------------ one seat
  function marks(f, s) {
    var out = {};
    f.hl.forEach(function (m) {
      if (m[0] !== s) return;
      (out[m[1]] = out[m[1]] || []).push(m[2]);
    });
    return out;
  }
  function has(list, i) { return !!list && (list.indexOf(i) >= 0 || list.indexOf(-1) >= 0); }

  function meldWidth(m) {
    if (m.hidden || m.kind === "concealed_kong") return 4 * P;
    var upright = m.kind === "added_kong" ? 2 : m.tiles.length - 1;
    return upright * P + LY;
  }

  function drawMeld(m, k, x, s, flip, hl) {
    var out = "";
    function data(i, extra) {
      var d = { seat: s, zone: "meld", meld: k, kind: m.kind, i: i };
      for (var key in extra || {}) d[key] = extra[key];
      return d;
    }
    if (m.hidden || m.kind === "concealed_kong") {
      for (var i = 0; i < 4; i++) {
        var code = m.hidden ? null : m.tiles[i];
        out += tile({ x: x, y: HAND_Y, code: code, back: i === 0 || i === 3, flip: flip, hl: hl,
          data: data(i, {}), title: m.hidden ? "a concealed kong" : "" });
        x += P;
      }
      return out;
    }
    var rel = (m.from - s + 4) % 4;
    var tiles = m.tiles.slice();
    var order, at;
    if (m.kind === "chow") {
      var j = tiles.indexOf(m.claimed);
      order = [m.claimed].concat(tiles.slice(0, j), tiles.slice(j + 1));
      at = 0;
    } else {
      order = m.kind === "added_kong" ? tiles.slice(0, 3) : tiles;
      at = rel === 3 ? 0 : rel === 2 ? 1 : order.length - 1;
    }
    order.forEach(function (c, i) {
      if (i !== at) {
        out += tile({ x: x, y: HAND_Y, code: c, flip: flip, hl: hl, data: data(i, {}) });
        x += P;
        return;
      }
      var who = "claimed from seat " + m.from + " (" + RELATIVE[rel] + ")";
      out += tile({ x: x, y: HAND_Y, code: c, lying: true, flip: flip, hl: hl, cls: "claimed",
        data: data(i, { claimed: 1, from: m.from }), title: who });
      var top = HAND_Y + TH + TD - TW;
      if (m.kind === "added_kong") {
        top -= TW;
        out += tile({ x: x, y: HAND_Y - TW, code: c, lying: true, flip: flip, hl: hl,
          data: data(3, { added: 1 }), title: "added to the pung" });
      }
      out += arrow(x + (TH + TD) / 2, top - 8, rel);
      x += LY;
    });
    return out;
  }

  function drawSeat(h, f, s) {
    var st = h.states[f.s[s]];
    var p = pos(s), flip = p === 2, hl = marks(f, s);
    var out = '<g class="seat" data-seat="' + s + '" data-pos="' + p + '" transform="rotate(' +
      (-90 * p) + ' 500 500)">';
    var x = HAND_X;
    function handHl(code, i) {
      var l = hl.hand;
      if (!l) return false;
      return l.indexOf(-1) >= 0 || l.indexOf(code) >= 0;
    }
    if (st.hand) {
      st.hand.forEach(function (c, i) {
        out += tile({ x: x, y: HAND_Y, code: c, flip: flip, hl: handHl(c, i),
          data: { seat: s, zone: "hand", i: i } });
        x += P;
      });
    } else {
      for (var i = 0; i < st.hidden; i++) {
        out += tile({ x: x, y: HAND_Y, code: null, flip: flip, hl: has(hl.hand, -1),
          data: { seat: s, zone: "hand", i: i } });
        x += P;
      }
    }
    if ("drawn" in st) {
      out += tile({ x: x + 12, y: HAND_Y, code: st.drawn, flip: flip, hl: !!hl.drawn,
        data: { seat: s, zone: "hand", drawn: 1 } });
    }
    var right = MELD_RIGHT;
    st.melds.forEach(function (m, k) {
      right -= meldWidth(m);
      out += drawMeld(m, k, right, s, flip, has(hl.meld, k));
      right -= 10;
    });
    st.flowers.forEach(function (c, i) {
      out += tile({ x: HAND_X + i * 27, y: FLOWER_Y, code: c, scale: 0.7, flip: flip,
        hl: has(hl.flower, i), data: { seat: s, zone: "flower", i: i } });
    });
    st.river.forEach(function (r, i) {
      var row = Math.min(Math.floor(i / 6), 3), col = i - row * 6;
      out += tile({ x: RIVER_X + col * P, y: RIVER_Y + row * LY, code: r[0], flip: flip,
        hl: has(hl.river, i), cls: r[1] >= 0 ? "taken" : "",
        data: { seat: s, zone: "river", i: i, "claimed-by": r[1] },
        title: r[1] >= 0 ? "claimed by seat " + r[1] : "" });
    });
    return out + "</g>";
  }

  // ------------------------------------------------------------------ the centre
  function drawCentre(h, f, over) {
    var out = '<rect x="394" y="394" width="212" height="212" rx="18" fill="#0c3326" ' +
      'stroke="#3f8d69" stroke-width="2"/>';
    var round = WINDS[h.wind] + "風" + (h.hand_index === null ? "" : " · 第" + (h.hand_index + 1) + "局");
    var roundEn = WIND_EN[h.wind] + " round" + (h.hand_index === null ? "" : " · hand " + (h.hand_index + 1));
    out += '<text x="500" y="470" font-size="21" fill="#e9f6ef" text-anchor="middle">' + round + "</text>";
    out += '<text x="500" y="489" font-size="12" fill="#9cc9b4" text-anchor="middle" ' +
      'font-family="sans-serif">' + roundEn + "</text>";
    out += '<text id="wall-count" data-left="' + f.left + '" x="500" y="534" font-size="40" ' +
      'fill="#ffffff" text-anchor="middle" font-family="Georgia,serif" font-weight="bold">' +
      f.left + "</text>";
    out += '<text x="500" y="553" font-size="12" fill="#9cc9b4" text-anchor="middle" ' +
      'font-family="sans-serif">tiles left · 余牌</text>';
    var pay = over && h.result ? h.result.payments : null;
    for (var s = 0; s < 4; s++) {
      var p = pos(s), actor = f.actor === s;
      var turn = p === 2 ? ' transform="rotate(180 500 585)"' : "";
      out += '<g class="seatlabel' + (actor ? " actor" : "") + '" data-seat="' + s +
        '" transform="rotate(' + (-90 * p) + ' 500 500)"><g' + turn + ">";
      out += '<rect class="plate" x="430" y="568" width="140" height="34" rx="9" fill="#1b5f45"/>';
      out += '<text x="452" y="594" font-size="23" fill="#ffffff" text-anchor="middle">' +
        WINDS[seatWind(h, s)] + "</text>";
      var tag = "S" + s + (h.dealer === s ? " 庄" : "");
      if (f.parts) tag += " · " + f.parts[s];
      out += '<text x="470" y="592" font-size="17" font-weight="bold" fill="#d7efe4" ' +
        'font-family="sans-serif">' +
        tag + "</text>";
      if (pay) {
        out += '<text class="pay" x="566" y="591" font-size="15" text-anchor="end" ' +
          'font-family="sans-serif" font-weight="bold" fill="' +
          (pay[s] > 0 ? "#7ee2a8" : pay[s] < 0 ? "#ff9d94" : "#d7efe4") + '">' +
          signed(pay[s]) + "</text>";
      }
      out += "</g></g>";
    }
    return out;
  }

  function drawTable() {
    var h = hand(), f = frame(), over = view.step === lastStep();
    var out = '<defs><radialGradient id="mj-felt" cx="50%" cy="50%" r="72%">' +
      '<stop offset="0" stop-color="#2a8557"/><stop offset="1" stop-color="#1a6242"/>' +
      "</radialGradient></defs>" +
      '<rect x="0" y="0" width="1000" height="1000" rx="28" fill="#5a3a22"/>' +
      '<rect x="12" y="12" width="976" height="976" rx="20" fill="url(#mj-felt)"/>';
    out += drawCentre(h, f, over);
    for (var s = 0; s < 4; s++) out += drawSeat(h, f, s);
    $("table").innerHTML = out;
  }

  // ------------------------------------------------------------------ the side panel
  function fillLog() {
    var h = hand(), items = [];
    h.log.forEach(function (e, i) {
      var note = h.notes[String(i)] ? " note-here" : "";
      items.push('<li data-step="' + i + '" class="' + note.trim() + '"><span class="n">' +
        (i + 1) + '</span><span class="who">' + esc(seatName(h, e.seat)) + "</span><span>" +
        esc(e.text) + "</span></li>");
    });
    $("log").innerHTML = items.join("");
  }

  function drawNotes() {
    var h = hand(), notes = h.notes[String(view.step)] || [];
    $("notes").innerHTML = notes.map(function (n) {
      var value = n.value === null || n.value === undefined ? "" :
        " · value <b>" + (n.value > 0 ? "+" : "") + Number(n.value).toFixed(3) + "</b>";
      var bars = n.top.map(function (t) {
        var pct = (100 * t[1]).toFixed(1);
        return '<div class="bar' + (t[0] === n.chosen ? " chosen" : "") + '" data-action="' +
          esc(t[0]) + '" data-prob="' + t[1] + '"><span class="name"><i style="width:' + pct +
          '%"></i><span>' + esc(t[0]) + '</span></span><span class="pct">' + pct + "%</span></div>";
      }).join("");
      return '<div class="note" data-note-seat="' + n.seat + '"><h3>' + esc(seatName(h, n.seat)) +
        " decides · chose <b>" + esc(n.chosen) + "</b>" + value + "</h3>" + bars + "</div>";
    }).join("");
  }

  function drawResult() {
    var h = hand(), r = h.result, el = $("result");
    if (!r || view.step !== lastStep() || view.hideResult) { el.hidden = true; return; }
    var out = '<button class="close" title="hide (the table stays at the end)">\u00d7</button>';
    if (r.kind === "win") {
      var how = r.self_drawn ? "self-drawn · 自摸" : r.robbed ?
        "robbing the kong of " + seatName(h, r.from) + " · 抢杠和" :
        "the discard of " + seatName(h, r.from) + " · 点和";
      out += '<h2><span class="zh">和</span>' + esc(seatName(h, r.winner)) + " (" +
        WIND_EN[seatWind(h, r.winner)] + ") wins</h2>";
      out += '<div class="how"><svg class="wintile" viewBox="0 0 30 43" data-tile="' + r.tile +
        '"><use href="#t-' + r.tile + '"/></svg>' + esc(r.tile) + " · " + esc(how) + "</div>";
      out += '<table class="fans"><thead><tr><th>番种</th><th>fan</th><th class="num">points</th>' +
        '<th class="num">count</th><th class="num">total</th></tr></thead><tbody>';
      r.fans.forEach(function (fan) {
        var pts = fan[2] === null ? "?" : fan[2];
        var total = fan[2] === null ? "?" : fan[2] * fan[3];
        out += '<tr data-fan="' + esc(fan[0]) + '" data-en="' + esc(fan[1]) + '" data-points="' +
          pts + '" data-count="' + fan[3] + '"><td class="zh">' + esc(fan[0]) + "</td><td>" +
          esc(fan[1]) + '</td><td class="num">' + pts + '</td><td class="num">\u00d7' + fan[3] +
          '</td><td class="num">' + total + "</td></tr>";
      });
      out += '<tr class="total"><td class="zh">合计</td><td>Total</td><td></td><td></td>' +
        '<td class="num" id="fan-total">' + r.total + "</td></tr></tbody></table>";
    } else if (r.kind === "penalty") {
      out += '<h2><span class="zh">错和</span>' + esc(seatName(h, r.penalized)) +
        " declared a false win</h2><div class=\"how\">penalised: the offender pays each other seat</div>";
    } else {
      out += '<h2><span class="zh">荒庄</span>Exhaustive draw</h2>' +
        '<div class="how">the wall is exhausted: nobody pays</div>';
    }
    out += '<div class="pay" id="payments">';
    for (var s = 0; s < 4; s++) {
      var v = r.payments[s];
      var after = h.scores ? '<small>match ' + signed(h.scores[s] + v) + "</small>" : "";
      out += '<div data-seat="' + s + '" data-pay="' + v + '">' + esc(seatName(h, s)) +
        '<b class="' + (v > 0 ? "plus" : v < 0 ? "minus" : "") + '">' + signed(v) + "</b>" +
        after + "</div>";
    }
    out += "</div>";
    el.innerHTML = out;
    el.hidden = false;
    el.querySelector(".close").addEventListener("click", function () {
      view.hideResult = true;
      el.hidden = true;
    });
  }

  function drawSide() {
    var h = hand(), f = frame(), n = h.frames.length, e = h.log[view.step];
    $("slider").max = String(n - 1);
    $("slider").value = String(view.step);
    $("step-label").textContent = "step " + (view.step + 1) + " / " + n +
      (DATA.hands.length > 1 ? " · hand " + (view.hand + 1) + " / " + DATA.hands.length : "");
    $("caption").innerHTML = '<b>' + esc(seatName(h, e.seat)) + "</b> " + esc(e.text);
    var items = $("log").children;
    var cur = $("log").querySelector("li.cur");
    if (cur) cur.classList.remove("cur");
    var li = items[view.step];
    if (li) {
      li.classList.add("cur");
      scrollLog();
    }
    drawNotes();
    drawResult();
    $("play").innerHTML = $(view.timer ? "icon-pause" : "icon-play").innerHTML;
    $("play").classList.toggle("on", !!view.timer);
    rememberPlace();
  }

  // The address keeps the place (#h=2&s=57) so that a link opens the page there; browsers
  // throttle history updates, so it is written once the steps pause for a moment.
  var placeTimer = null;
  function rememberPlace() {
    if (placeTimer) clearTimeout(placeTimer);
    placeTimer = setTimeout(function () {
      placeTimer = null;
      try {
        history.replaceState(null, "", "#h=" + (view.hand + 1) + "&s=" + (view.step + 1));
      } catch (err) { /* a browser that refuses: the page still works */ }
    }, 400);
  }

  // Scrolling the log reads the layout; done at once after each redraw of the table, that
  // would lay the whole SVG out again at every step, so it waits for the next animation frame
  // (one scroll however many steps were taken meanwhile).
  var scrollPending = false;
  function scrollLog() {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(function () {
      scrollPending = false;
      var box = $("log"), li = box.querySelector("li.cur");
      if (!li) return;
      if (li.offsetTop < box.scrollTop ||
          li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = li.offsetTop - box.clientHeight / 2;
      }
    });
  }

  function draw() {
    drawTable();
    drawSide();
  }

  // ------------------------------------------------------------------ controls
  function go(step) {
    var s = Math.max(0, Math.min(lastStep(), Math.floor(Number(step)) || 0));
    if (s !== view.step) view.hideResult = false;
    view.step = s;
    draw();
    return view.step;
  }
  function pickHand(i) {
    var k = Math.max(0, Math.min(DATA.hands.length - 1, Number(i) || 0));
    stop();
    view.hand = k;
    view.step = 0;
    view.hideResult = false;
    $("hand-select").value = String(k);
    fillLog();
    draw();
    return k;
  }
  function stop() {
    if (view.timer) { clearInterval(view.timer); view.timer = null; }
  }
  function togglePlay() {
    if (view.timer) { stop(); drawSide(); return false; }
    if (view.step >= lastStep()) view.step = 0;
    var rate = Number($("speed").value) || 3;
    view.timer = setInterval(function () {
      if (view.step >= lastStep()) { stop(); drawSide(); return; }
      go(view.step + 1);
    }, 1000 / rate);
    drawSide();
    return true;
  }
  function step(delta) { stop(); return go(view.step + delta); }

  function wire() {
    var select = $("hand-select");
    select.innerHTML = DATA.hands.map(function (h, i) {
      return '<option value="' + i + '">' + esc(h.label) + "</option>";
    }).join("");
    $("hand-pick").hidden = DATA.hands.length < 2;
    select.addEventListener("change", function () { pickHand(select.value); select.blur(); });
    $("view-note").textContent = DATA.seat === null ? "every hand face up" :
      "as seat " + DATA.seat + " saw it (hidden tiles are not in this file)";
    var buttons = { first: function () { stop(); go(0); }, prev: function () { step(-1); },
      play: togglePlay, next: function () { step(1); }, last: function () { stop(); go(lastStep()); } };
    Object.keys(buttons).forEach(function (id) {
      $(id).addEventListener("click", function (ev) { buttons[id](); ev.currentTarget.blur(); });
    });
    $("slider").addEventListener("input", function () { stop(); go($("slider").value); });
    $("speed").addEventListener("change", function () {
      if (view.timer) { stop(); togglePlay(); }
    });
    $("log").addEventListener("click", function (ev) {
      var li = ev.target.closest("li");
      if (li) { stop(); go(li.getAttribute("data-step")); }
    });
    document.addEventListener("keydown", function (ev) {
      var t = ev.target, tag = t && t.tagName;
      // a focused slider or selector handles its own keys (the slider: arrows, Home, End)
      if ((tag === "INPUT" && ev.key !== " ") || tag === "SELECT" || tag === "TEXTAREA") return;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.key === "ArrowRight") step(1);
      else if (ev.key === "ArrowLeft") step(-1);
      else if (ev.key === "Home") { stop(); go(0); }
      else if (ev.key === "End") { stop(); go(lastStep()); }
      else if (ev.key === " " || ev.key === "Spacebar") togglePlay();
      else if (ev.key === "PageDown") pickHand(view.hand + 1);
      else if (ev.key === "PageUp") pickHand(view.hand - 1);
      else return;
      ev.preventDefault();
    });
  }

  function start() {
    wire();
    var m = /h=(\d+)&s=(\d+)/.exec(location.hash || "");
    pickHand(m ? Number(m[1]) - 1 : 0);
    if (m) go(Number(m[2]) - 1);
    document.title = DATA.title + " · mjenv";
  }

  window.mjview = {
    data: DATA,
    go: function (s) { stop(); return go(s); },
    hand: pickHand,
    play: togglePlay,
    state: function () {
      var h = hand(), f = frame();
      return {
        hand: view.hand, step: view.step, steps: h.frames.length, left: f.left,
        actor: f.actor, playing: !!view.timer, over: view.step === lastStep(),
        seats: f.s.map(function (i) { return h.states[i]; }),
        notes: h.notes[String(view.step)] || [],
        result: view.step === lastStep() ? h.result : null
      };
    }
  };
  start();
})();
