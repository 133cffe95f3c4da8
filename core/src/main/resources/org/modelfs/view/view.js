/* modelfs view: the page's script (docs/VIEW.md). Data from #modelfs-data; layout by dagre, per expanded group. */
(function () {
  'use strict';
  var t0 = performance.now();
  var D = JSON.parse(document.getElementById('modelfs-data').textContent);
  var F = D.b || D.a;                       // the facts drawn: the second tag when comparing
  var G = F.graph || {variables: [], ops: [], placeholders: [], lossVariables: [], outputs: []};
  var MAX_CHILDREN = 200;                   // a scope with more direct children is cut into parts
  var COLLAPSED_W = 150, NODE_H = 30, PAD = 14, HEAD = 20;
  var SVGNS = 'http://www.w3.org/2000/svg';

  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function num(x) {
    if (x === null || x === undefined) return '–';
    if (typeof x !== 'number') return esc(x);
    if (x === 0 || Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
    return Number(x.toPrecision(6)).toString();
  }
  function shapeText(s) { return s ? '[' + s.join(',') + ']' : ''; }

  document.getElementById('title').textContent = D.b
    ? D.a.model + '#' + D.a.tag + '  →  ' + D.b.model + '#' + D.b.tag : D.a.model + '#' + D.a.tag;

  /* ---------- the graph as nodes and edges ---------- */
  var vars = {}, producer = {}, consumed = {}, nodes = {}, nodeList = [];
  var loss = new Set(G.lossVariables || []), outs = new Set(G.outputs || []), phs = new Set(G.placeholders || []);
  G.variables.forEach(function (v) { vars[v.name] = v; });
  // comparing: the ops removed since A are drawn too, as ghosts (struck out) where they stood in A
  var ghosts = new Set(), OPS = G.ops;
  if (D.compare && D.a.graph) {
    var removedOps = new Set(D.compare.ops.removed);
    OPS = G.ops.concat(D.a.graph.ops.filter(function (op) { return removedOps.has(op.name); }));
    D.compare.ops.removed.forEach(function (n) { ghosts.add('op:' + n); });
    D.a.graph.variables.forEach(function (v) { if (!vars[v.name]) vars[v.name] = v; });
  }
  OPS.forEach(function (op) {
    (op.outputs || []).forEach(function (o) { if (!producer[o]) producer[o] = op.name; });
    (op.inputs || []).forEach(function (i) { consumed[i] = true; });
  });
  function addNode(id, name, cls, data) {
    var n = {id: id, name: name, cls: cls, data: data, order: nodeList.length};
    nodes[id] = n; nodeList.push(n);
  }
  G.variables.forEach(function (v) {
    var kind = phs.has(v.name) ? 'PLACEHOLDER' : v.kind;
    var cls = kind === 'VARIABLE' ? 'var' : kind === 'CONSTANT' ? 'const' : kind === 'PLACEHOLDER' ? 'ph'
      : loss.has(v.name) ? 'loss' : outs.has(v.name) || !consumed[v.name] || !producer[v.name] ? 'out' : null;
    if (cls) addNode('var:' + v.name, v.name, cls, v);
  });
  OPS.forEach(function (op) { addNode('op:' + op.name, op.name, 'op', op); });
  var opsByName = {};
  OPS.forEach(function (op) { if (!opsByName[op.name]) opsByName[op.name] = op; });
  function tensorLabel(v) {
    var x = vars[v];
    return x ? (x.dtype || '?') + shapeText(x.shape) : v;
  }
  var edges = [];
  // the back edge of a while loop: out of NextIteration (DL4J: next_iteration; TensorFlow: NextIteration)
  function isLoop(fromOp) { return !!fromOp && /^next_?iteration$/i.test(fromOp.opName); }
  OPS.forEach(function (op) {
    (op.inputs || []).forEach(function (v) {
      var from = nodes['var:' + v] ? 'var:' + v : producer[v] ? 'op:' + producer[v] : null;
      if (from) edges.push({from: from, to: 'op:' + op.name, v: v, loop: isLoop(opsByName[producer[v]])});
    });
    (op.outputs || []).forEach(function (v) {
      if (nodes['var:' + v]) edges.push({from: 'op:' + op.name, to: 'var:' + v, v: v, loop: false});
    });
  });
  edges.forEach(function (e) { e.ghost = ghosts.has(e.from) || ghosts.has(e.to); });

  /* ---------- name scopes ---------- */
  var groups = {};   // path -> {path, label, parent, kids: [group paths], members: [node ids], count}
  function group(path) {
    var g = groups[path];
    if (g) return g;
    var cut = path.lastIndexOf('/');
    g = groups[path] = {path: path, label: cut < 0 ? path : path.substring(cut + 1), parent: path === '' ? null : cut < 0 ? '' : path.substring(0, cut), kids: [], members: [], count: 0};
    if (g.parent !== null) group(g.parent).kids.push(path);
    return g;
  }
  group('');
  nodeList.forEach(function (n) {
    var cut = n.name.lastIndexOf('/');
    n.group = cut <= 0 ? '' : n.name.substring(0, cut);
    group(n.group).members.push(n.id);
  });
  // a scope with too many direct members is cut into parts of MAX_CHILDREN, in the graph's order
  Object.keys(groups).forEach(function (p) {
    var g = groups[p];
    if (g.members.length + g.kids.length <= MAX_CHILDREN) return;
    var members = g.members.slice();
    g.members = [];
    for (var i = 0; i < members.length; i += MAX_CHILDREN) {
      var part = (p === '' ? '' : p + '/') + '\u2026' + (i + 1) + '\u2013' + Math.min(members.length, i + MAX_CHILDREN);
      var pg = group(part);
      pg.synthetic = true;
      members.slice(i, i + MAX_CHILDREN).forEach(function (id) { nodes[id].group = part; pg.members.push(id); });
    }
  });
  function countOf(p) {
    var g = groups[p];
    g.count = g.members.length;
    g.kids.forEach(function (k) { g.count += countOf(k); });
    return g.count;
  }
  countOf('');
  function chain(gp) { var out = []; for (var p = gp; p !== null; p = groups[p].parent) out.unshift(p); return out; }
  // each edge belongs to the lowest scope holding both ends, between that scope's two children
  var edgesAt = {};
  edges.forEach(function (e) {
    var a = chain(nodes[e.from].group), b = chain(nodes[e.to].group), i = 0;
    while (i + 1 < a.length && i + 1 < b.length && a[i + 1] === b[i + 1]) i++;
    var at = a[i];
    e.a = i + 1 < a.length ? 'grp:' + a[i + 1] : e.from;
    e.b = i + 1 < b.length ? 'grp:' + b[i + 1] : e.to;
    if (e.a === e.b) return;
    (edgesAt[at] = edgesAt[at] || []).push(e);
  });

  /* ---------- layout: one dagre run per expanded scope, cached until a scope inside it changes ---------- */
  var open = new Set(['']), cache = {};
  function textWidth(s) { return Math.min(300, 14 + 6.6 * s.length); }
  var LABEL_H = 12;                         // an edge label: 9px text (view.css .edge text)
  function labelWidth(s) { return Math.min(240, 4 + 5.4 * s.length); }
  function edgeLabel(vs) { return vs.length === 1 ? tensorLabel(vs[0]) : vs.length + ' tensors'; }
  function opLabel(n) { return short(n.name) === n.data.opName ? [n.data.opName, ''] : [n.data.opName, short(n.name)]; }
  function nodeSize(n) {
    var label = n.cls === 'op' ? opLabel(n).join(' ') : short(n.name);
    return {w: textWidth(label), h: n.cls === 'op' ? NODE_H + 6 : NODE_H};
  }
  function short(name) { var c = name.lastIndexOf('/'); return c < 0 ? name : name.substring(c + 1); }
  function layout(p) {
    if (cache[p]) return cache[p];
    var g = groups[p], dg = new dagre.graphlib.Graph({multigraph: false});
    dg.setGraph({rankdir: 'TB', nodesep: 18, ranksep: 34, marginx: PAD, marginy: PAD});
    dg.setDefaultEdgeLabel(function () { return {}; });
    var kids = {};
    g.kids.forEach(function (k) {
      var id = 'grp:' + k, size;
      if (open.has(k)) { var l = layout(k); size = {w: l.w, h: l.h + HEAD}; } else size = {w: COLLAPSED_W, h: NODE_H + 8};
      kids[id] = size; dg.setNode(id, {width: size.w, height: size.h});
    });
    g.members.forEach(function (id) { var s = nodeSize(nodes[id]); kids[id] = s; dg.setNode(id, {width: s.w, height: s.h}); });
    var bundles = {};
    (edgesAt[p] || []).forEach(function (e) {
      var key = e.a + '\u0000' + e.b, bd = bundles[key];
      if (!bd) { bd = bundles[key] = {a: e.a, b: e.b, vars: [], loop: false, ghost: true}; }
      bd.ghost = bd.ghost && e.ghost;
      if (bd.vars.indexOf(e.v) < 0) bd.vars.push(e.v);
      bd.loop = bd.loop || e.loop;
    });
    Object.keys(bundles).forEach(function (k) {
      var bd = bundles[k];
      // a loop's back edge is laid out reversed, so the loop body ranks in its forward order
      var from = bd.loop ? bd.b : bd.a, to = bd.loop ? bd.a : bd.b;
      bd.label = edgeLabel(bd.vars);
      // dagre places the label as a node of this size beside the edge, so labels never collide
      if (!dg.hasEdge(from, to) && !dg.hasEdge(to, from)) {
        dg.setEdge(from, to, {weight: 1, minlen: 1, width: labelWidth(bd.label), height: LABEL_H, labelpos: 'r', labeloffset: 4});
      }
    });
    dagre.layout(dg);
    var out = {w: Math.max(dg.graph().width || 0, 80), h: Math.max(dg.graph().height || 0, 30), at: {}, edges: []};
    Object.keys(kids).forEach(function (id) { var n = dg.node(id); out.at[id] = {x: n.x - n.width / 2, y: n.y - n.height / 2, w: n.width, h: n.height}; });
    Object.keys(bundles).forEach(function (k) {
      var bd = bundles[k], de = dg.edge(bd.a, bd.b), pts, at = null;
      if (de) pts = de.points; else { de = dg.edge(bd.b, bd.a); pts = de ? de.points.slice().reverse() : []; }
      if (de && de.x !== undefined && de.width) at = {x: de.x, y: de.y};
      out.edges.push({a: bd.a, b: bd.b, vars: bd.vars, loop: bd.loop, points: pts, label: bd.label, at: at, ghost: bd.ghost});
    });
    cache[p] = out;
    return out;
  }
  function invalidate(p) { for (; p !== null && p !== undefined; p = groups[p].parent) delete cache[p]; }

  /* ---------- drawing ---------- */
  var svg = document.getElementById('svg'), vp = document.getElementById('viewport');
  var selected = null, marks = {};
  if (D.compare) {
    D.compare.ops.added.forEach(function (n) { marks['op:' + n] = 'added'; });
    D.compare.ops.changed.forEach(function (n) { marks['op:' + n] = 'changed'; });
    D.compare.ops.removed.forEach(function (n) { marks['op:' + n] = 'removed'; });
  }
  function draw() {
    var parts = ['<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#888"/></marker></defs>'];
    drawGroup('', 0, 0, parts);
    vp.innerHTML = parts.join('');
  }
  function drawGroup(p, ox, oy, parts) {
    var l = layout(p);
    l.edges.forEach(function (e) {
      var d = e.points.map(function (q, i) { return (i ? 'L' : 'M') + (q.x + ox).toFixed(1) + ',' + (q.y + oy).toFixed(1); }).join('');
      var mid = e.at || e.points[Math.floor(e.points.length / 2)] || {x: 0, y: 0};
      var label = e.label;
      parts.push('<g class="edge' + (e.loop ? ' loop' : '') + (e.ghost ? ' removed' : '') + '" data-vars="' + esc(JSON.stringify(e.vars)) + '"><title>' + esc(e.vars.map(function (v) { return v + ' ' + tensorLabel(v); }).join('\n')) + '</title><path d="' + d + '"/><text text-anchor="middle" x="' + (mid.x + ox).toFixed(1) + '" y="' + (mid.y + oy + 3).toFixed(1) + '">' + esc(label) + '</text></g>');
    });
    Object.keys(l.at).forEach(function (id) {
      var r = l.at[id], x = r.x + ox, y = r.y + oy;
      if (id.indexOf('grp:') === 0) {
        var gp = id.substring(4), g = groups[gp], isOpen = open.has(gp);
        parts.push('<g class="grp' + (isOpen ? ' open' : '') + '" data-group="' + esc(gp) + '"><rect rx="6" x="' + x + '" y="' + y + '" width="' + r.w + '" height="' + r.h + '"/><text class="hd" x="' + (x + 6) + '" y="' + (y + 14) + '">' + (isOpen ? '\u2212 ' : '+ ') + esc(g.label) + ' (' + g.count + ')</text></g>');
        if (isOpen) drawGroup(gp, x, y + HEAD, parts);
      } else {
        var n = nodes[id], cls = 'node ' + n.cls + (marks[id] ? ' ' + marks[id] : '') + (selected === id ? ' sel' : '');
        var label = n.cls === 'op' ? esc(opLabel(n)[0]) + ' <tspan fill="#777">' + esc(opLabel(n)[1]) + '</tspan>' : esc(short(n.name));
        var shape = n.cls === 'ph' ? '<ellipse cx="' + (x + r.w / 2) + '" cy="' + (y + r.h / 2) + '" rx="' + r.w / 2 + '" ry="' + r.h / 2 + '"/>'
          : '<rect rx="' + (n.cls === 'op' ? 8 : 2) + '" x="' + x + '" y="' + y + '" width="' + r.w + '" height="' + r.h + '"/>';
        parts.push('<g class="' + cls + '" data-id="' + esc(id) + '"><title>' + esc(n.name) + '</title>' + shape + '<text x="' + (x + 6) + '" y="' + (y + r.h / 2 + 4) + '">' + label + '</text></g>');
      }
    });
  }

  /* pan and zoom */
  var view = {x: 0, y: 0, k: 1}, drag = null;
  function apply() { vp.setAttribute('transform', 'translate(' + view.x + ',' + view.y + ') scale(' + view.k + ')'); }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var f = ev.deltaY < 0 ? 1.15 : 1 / 1.15, b = svg.getBoundingClientRect(), mx = ev.clientX - b.left, my = ev.clientY - b.top;
    view.x = mx - (mx - view.x) * f; view.y = my - (my - view.y) * f; view.k *= f; apply();
  }, {passive: false});
  svg.addEventListener('mousedown', function (ev) { drag = {x: ev.clientX - view.x, y: ev.clientY - view.y, moved: false}; });
  window.addEventListener('mousemove', function (ev) { if (drag) { drag.moved = true; view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; apply(); } });
  window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });

  function toggle(gp) {
    if (open.has(gp)) open.delete(gp); else open.add(gp);
    invalidate(gp);
    draw();
  }
  svg.addEventListener('click', function (ev) {
    if (drag && drag.moved) return;
    var el = ev.target.closest('[data-id],[data-group]');
    if (!el) return;
    if (el.hasAttribute('data-group')) { showGroup(el.getAttribute('data-group')); toggle(el.getAttribute('data-group')); return; }
    select(el.getAttribute('data-id'));
  });
  function select(id) {
    selected = id;
    draw();
    var n = nodes[id];
    document.getElementById('panel').innerHTML = n.cls === 'op' ? opPanel(n.data) : variablePanel(n.name);
  }

  /* ---------- the panel ---------- */
  var ARG_LISTS = ['iArgs', 'tArgs', 'bArgs', 'dArgs', 'sArgs', 'dimensions', 'scalar'];
  function opPanel(op) {
    var h = '<h2>' + esc(op.opName) + '</h2><p><b>' + esc(op.name) + '</b> <span class="note">' + esc(op.opType || '') + '</span></p>';
    h += '<h3>inputs</h3>' + nameList(op.inputs) + '<h3>outputs</h3>' + nameList(op.outputs);
    h += '<h3>arguments</h3><table class="args">';
    var any = false;
    ARG_LISTS.forEach(function (k) {
      var v = op[k];
      if (v === undefined) return;
      if (v && typeof v === 'object' && !Array.isArray(v) && k !== 'scalar') {
        Object.keys(v).forEach(function (a) { any = true; h += '<tr><td>' + esc(k) + '.' + esc(a) + '</td><td><pre>' + esc(JSON.stringify(v[a])) + '</pre></td></tr>'; });
      } else if (!Array.isArray(v) || v.length) {
        any = true; h += '<tr><td>' + esc(k) + '</td><td><pre>' + esc(JSON.stringify(v)) + '</pre></td></tr>';
      }
    });
    h += '</table>' + (any ? '' : '<p class="note">(no arguments stored)</p>');
    if (D.compare && marks['op:' + op.name]) h += '<p class="warn">' + marks['op:' + op.name] + ' since ' + esc(D.a.tag) + '</p>';
    return h;
  }
  function nameList(l) { return '<pre>' + esc((l || []).map(function (v) { return v + '  ' + tensorLabel(v); }).join('\n') || '(none)') + '</pre>'; }
  var arraysByName = {}, updaterOf = {}, deltas = {};
  F.arrays.forEach(function (a) {
    if (a.area === 'params') arraysByName[a.name] = a;
    else (updaterOf[a.param] = updaterOf[a.param] || []).push(a);
  });
  if (D.compare) D.compare.arrays.forEach(function (c) { deltas[c.area + '/' + c.name] = c; });
  function variablePanel(name) {
    var v = vars[name] || {}, a = arraysByName[name];
    var h = '<h2>' + esc(name) + '</h2><p>' + esc(v.kind || '') + ' ' + esc(v.dtype || '') + ' ' + esc(shapeText(v.shape)) + '</p>';
    var prod = producer[name];
    if (prod) h += '<p>made by <b>' + esc(opsByName[prod].opName) + '</b> ' + esc(prod) + '</p>';
    h += a ? arrayFacts(a) : '<p class="note">no array stored (computed or fed at run time)</p>';
    (updaterOf[name] || []).forEach(function (u) { h += '<h3>updater state ' + esc(u.key) + '</h3>' + arrayFacts(u); });
    return h;
  }
  function arrayFacts(a) {
    var s = a.stats, h = '<table><tr><td>dtype</td><td>' + esc(a.dtype) + '</td></tr><tr><td>shape</td><td>' + esc(shapeText(a.shape)) + '</td></tr><tr><td>bytes</td><td>' + num(a.bytes) + '</td></tr>';
    if (s) {
      ['elements', 'min', 'max', 'mean', 'std', 'zeros', 'nan', 'posInf', 'negInf'].forEach(function (k) {
        h += '<tr><td>' + k + '</td><td' + ((k === 'nan' || /Inf/.test(k)) && s[k] ? ' class="warn"' : '') + '>' + num(s[k]) + '</td></tr>';
      });
    }
    h += '</table>';
    if (s && s.sampled) h += '<p class="warn">sampled ' + num(s.read) + ' of ' + num(s.elements) + ' elements</p>';
    if (s && s.histogram) h += histogram(s.histogram, 320, 90, '');
    var d = deltas[a.area + '/' + a.name];
    if (d) {
      h += '<h3>since ' + esc(D.a.tag) + ': ' + esc(d.change) + '</h3>';
      if (d.delta) {
        h += '<p>‖Δ‖/‖W‖ = ' + num(d.delta.relativeChange) + ', ' + num(d.delta.differing) + ' elements differ</p>';
        if (d.delta.histogram) h += histogram(d.delta.histogram, 320, 70, ' delta');
      }
    }
    return h;
  }
  function histogram(hg, w, hh, cls) {
    var max = Math.max.apply(null, hg.counts) || 1, bw = w / hg.counts.length, out = '<svg class="hist' + cls + '" width="' + w + '" height="' + (hh + 14) + '">';
    hg.counts.forEach(function (c, i) {
      var bh = c ? Math.max(1, c / max * hh) : 0;
      out += '<rect x="' + (i * bw).toFixed(2) + '" y="' + (hh - bh).toFixed(2) + '" width="' + Math.max(bw - 0.5, 0.5).toFixed(2) + '" height="' + bh.toFixed(2) + '"><title>[' + num(hg.edges[i]) + ', ' + num(hg.edges[i + 1]) + ') ' + c + '</title></rect>';
    });
    return out + '<text x="0" y="' + (hh + 12) + '" font-size="9">' + num(hg.edges[0]) + '</text><text x="' + w + '" y="' + (hh + 12) + '" font-size="9" text-anchor="end">' + num(hg.edges[hg.edges.length - 1]) + '</text></svg>';
  }
  function showGroup(gp) {
    var g = groups[gp], h = '<h2>' + esc(gp || '(top level)') + '</h2><p>' + g.count + ' ops and variables</p>';
    var rel = D.compare && D.compare.scopes.filter(function (s) { return s.scope === gp; })[0];
    if (rel) h += '<p>‖Δ‖/‖W‖ since ' + esc(D.a.tag) + ': ' + num(rel.relativeChange) + '</p>';
    document.getElementById('panel').innerHTML = h;
  }

  /* ---------- weights and compare tabs ---------- */
  /* the weights: one row per array, only the rows in view are in the DOM (tens of thousands of arrays open at once) */
  var ROW_H = 24, WCOLS = ['array', 'dtype', 'shape', 'min', 'max', 'mean', 'std', 'zeros', 'NaN', '±Inf', 'histogram', ''];
  function weightRow(a, i) {
    var s = a.stats || {}, inf = s.posInf === undefined ? null : s.posInf + s.negInf;
    return '<div class="wrow" style="top:' + i * ROW_H + 'px" data-row="' + i + '"><span title="' + esc(a.name) + '">' + esc(a.area === 'updater' ? 'updater/' + a.name : a.name) + '</span><span>' + esc(a.dtype) + '</span><span>' + esc(shapeText(a.shape)) + '</span><span>' + num(s.min) + '</span><span>' + num(s.max) + '</span><span>' + num(s.mean) + '</span><span>' + num(s.std) + '</span><span>' + num(s.zeros) + '</span><span' + (s.nan ? ' class="warn"' : '') + '>' + num(s.nan) + '</span><span' + (inf ? ' class="warn"' : '') + '>' + num(inf) + '</span><span>' + (s.histogram ? histogram(s.histogram, 128, 10, '') : '') + '</span><span class="note">' + (s.sampled ? 'sampled ' + num(s.read) + ' of ' + num(s.elements) : '') + '</span></div>';
  }
  /* rows of fixed height in scrolling element el after its other content: only those in view (and ten either side) are in the page */
  function lazyRows(el, body, n, row) {
    var shown = '';
    function fill() {
      var top = el.scrollTop - body.offsetTop, first = Math.max(0, Math.floor(top / ROW_H) - 10);
      var last = Math.min(n, Math.ceil((top + el.clientHeight) / ROW_H) + 10), key = first + ':' + last;
      if (key === shown) return;
      shown = key;
      var h = [];
      for (var i = first; i < last; i++) h.push(row(i));
      body.innerHTML = h.join('');
    }
    body.style.height = n * ROW_H + 'px';
    el.addEventListener('scroll', function () { requestAnimationFrame(fill); });
    window.addEventListener('resize', fill);
    fill();
    return fill;
  }
  function header(cls, cols) { return '<div class="wrow whead ' + cls + '">' + cols.map(function (c) { return '<span>' + c + '</span>'; }).join('') + '</div>'; }
  function weights() {
    var el = document.getElementById('weights'), n = F.arrays.length;
    el.innerHTML = '<p class="note">' + n + ' arrays</p>' + header('', WCOLS) + '<div class="rows" id="wbody"></div>';
    return lazyRows(el, document.getElementById('wbody'), n, function (i) { return weightRow(F.arrays[i], i); });
  }
  function compare() {
    var c = D.compare, h = '<h2>' + esc(D.a.model + '#' + D.a.tag) + ' → ' + esc(D.b.model + '#' + D.b.tag) + '</h2>';
    var counts = {};
    c.arrays.forEach(function (x) { counts[x.change] = (counts[x.change] || 0) + 1; });
    h += '<p>' + ['changed', 'added', 'removed', 'retyped', 'unchanged'].map(function (k) { return (counts[k] || 0) + ' ' + k; }).join(', ') + ' arrays</p>';
    h += '<h3>ops</h3><p>' + c.ops.added.length + ' added, ' + c.ops.removed.length + ' removed, ' + c.ops.changed.length + ' changed</p>';
    ['added', 'removed', 'changed'].forEach(function (k) { if (c.ops[k].length) h += '<p><b>' + k + '</b>: ' + esc(c.ops[k].join(', ')) + '</p>'; });
    h += '<h3>relative change per name scope (‖Δ‖/‖W‖)</h3><table><tr><th>scope</th><th>‖Δ‖/‖W‖</th><th>‖Δ‖</th><th>‖W‖</th></tr>';
    c.scopes.slice().sort(function (x, y) { return (y.relativeChange || 0) - (x.relativeChange || 0); }).forEach(function (s) {
      h += '<tr><td>' + esc(s.scope || '(all parameters)') + '</td><td>' + num(s.relativeChange) + '</td><td>' + num(s.deltaNorm) + '</td><td>' + num(s.norm) + '</td></tr>';
    });
    var listed = c.arrays.filter(function (x) { return x.change !== 'unchanged'; });
    h += '</table><h3>arrays (' + listed.length + ' not unchanged)</h3>' + header('crow', ['array', 'change', '‖Δ‖/‖W‖', 'differing', 'max |Δ|', 'Δ histogram']) + '<div class="rows" id="cbody"></div>';
    var el = document.getElementById('compare');
    el.innerHTML = h;
    return lazyRows(el, document.getElementById('cbody'), listed.length, function (i) {
      var x = listed[i], d = x.delta || {};
      var maxAbs = d.delta && d.delta.min !== null ? Math.max(Math.abs(d.delta.min), Math.abs(d.delta.max)) : null;
      return '<div class="wrow crow" style="top:' + i * ROW_H + 'px"><span title="' + esc(x.name) + '">' + esc((x.area === 'updater' ? 'updater/' : '') + x.name) + '</span><span>' + esc(x.change) + (x.from ? ' ' + esc(x.from + ' → ' + x.to) : '') + '</span><span>' + num(d.relativeChange) + '</span><span>' + num(d.differing) + '</span><span>' + num(maxAbs) + '</span><span>' + (d.histogram ? histogram(d.histogram, 128, 10, ' delta') : '') + '</span></div>';
    });
  }
  var built = {}, fillWeights = null;
  document.querySelector('nav').addEventListener('click', function (ev) {
    var tab = ev.target.getAttribute('data-tab');
    if (!tab) return;
    document.querySelectorAll('nav button').forEach(function (b) { b.classList.toggle('on', b === ev.target); });
    document.querySelectorAll('.tab').forEach(function (s) { s.hidden = s.id !== tab; });
    if (!built[tab]) { built[tab] = true; if (tab === 'weights') fillWeights = weights(); if (tab === 'compare') compare(); }
  });
  if (D.compare) { document.getElementById('tab-compare').hidden = false; document.getElementById('legend-compare').hidden = false; }
  function setAll(on) {
    open = new Set(['']);
    if (on) Object.keys(groups).forEach(function (p) { open.add(p); });
    cache = {};
    draw();
  }
  document.getElementById('expand-all').addEventListener('click', function () { setAll(true); });
  document.getElementById('collapse-all').addEventListener('click', function () { setAll(false); });

  if (nodeList.length <= 150) Object.keys(groups).forEach(function (p) { open.add(p); });
  else if (groups[''].members.length === 0 && groups[''].kids.length === 1) open.add(groups[''].kids[0]);
  if (!F.graph) document.getElementById('panel').innerHTML = '<p class="warn">this tag has no graph: see the Weights tab</p>';
  draw();
  var b0 = svg.getBoundingClientRect(), l0 = layout('');
  view.k = Math.min(1, b0.width / (l0.w + 20) || 1, b0.height / (l0.h + 20) || 1);
  view.k = Math.max(view.k, 0.6);         // readable first; pan and zoom for the rest
  apply();
  // page.html#var:layer0/W or #op:matmul opens with that node selected (a link into the page)
  var wanted = decodeURIComponent(location.hash.substring(1));
  if (nodes[wanted]) select(wanted);
  /* what tests and scripts may ask of the page */
  window.modelfsView = {
    firstRenderMs: performance.now() - t0,   // our script: parse the facts, lay out and draw the top level
    readyAt: performance.now(),              // since navigation began: the page drawn and answering clicks
    groups: function () { return Object.keys(groups); },
    isOpen: function (p) { return open.has(p); },
    toggle: toggle, select: select, fillWeights: function () { if (fillWeights) fillWeights(); }, expandAll: function () { setAll(true); }, collapseAll: function () { setAll(false); }
  };
})();
