// A table's spectator screen fed straight from the broker: MQTT over WebSockets with the vendored
// MQTT.js (vendor/mqtt/mqtt.min.js), subscribed to the table's retained view and its presence.
// It stands in for the EventSource of spectator.js (window.ArenaFeed): the same 'open',
// 'snapshot', 'heartbeat' and 'error' events with the data a hub's /table/<id>/stream sends, so the
// page renders the broker's messages exactly as it renders the hub's.
// Where to connect comes from the page's initial JSON: urls.mqtt = {url, view, status}.
(function () {
  'use strict';
  const KEEPALIVE_S = 10;  // a ping answered is the page's heartbeat (it reconnects after 20 s of nothing)
  // MQTT.js did not load (a proxy that strips it, an old browser): the page keeps the hub's SSE stream
  if (!window.mqtt || typeof window.mqtt.connect !== 'function') return;

  class MqttFeed extends EventTarget {
    constructor() {
      super();
      const initial = JSON.parse(document.getElementById('initial').textContent);
      const cfg = (initial.urls || {}).mqtt;
      this.readyState = MqttFeed.CONNECTING;
      this.online = initial.online !== false;
      this.view = null;
      this.client = window.mqtt.connect(cfg.url, {
        protocolVersion: 4, clean: true, keepalive: KEEPALIVE_S, reconnectPeriod: 2000, connectTimeout: 10000,
      });
      this.client.on('connect', () => {
        this.client.subscribe([cfg.view, cfg.status], { qos: 0 });
        this.readyState = MqttFeed.OPEN;
        this.dispatchEvent(new Event('open'));
      });
      this.client.on('message', (topic, payload) => {
        const text = new TextDecoder().decode(payload);
        if (topic === cfg.status) {
          if (this.online === (text === 'online')) return;  // the retained presence the page knew
          this.online = text === 'online';
        } else {
          try { this.view = JSON.parse(text); } catch (e) { return; }
        }
        if (this.view) this.snapshot();
      });
      this.client.on('packetreceive', (packet) => {
        if (packet.cmd === 'pingresp') this.dispatchEvent(new MessageEvent('heartbeat', { data: '{}' }));
      });
      // MQTT.js reconnects by itself: the page shows "Reconnecting…" meanwhile, as for an EventSource
      this.client.on('offline', () => { this.readyState = MqttFeed.CONNECTING; this.dispatchEvent(new Event('error')); });
    }

    snapshot() {
      const v = this.view;
      const data = { epoch: v.epoch, version: v.version, rev: v.version, reason: 'broker', online: this.online,
        state: v.state || {} };
      this.dispatchEvent(new MessageEvent('snapshot', { data: JSON.stringify(data), lastEventId: v.epoch + ':' + v.version }));
    }

    close() {
      this.readyState = MqttFeed.CLOSED;
      this.client.end(true);
    }
  }
  MqttFeed.CONNECTING = 0;
  MqttFeed.OPEN = 1;
  MqttFeed.CLOSED = 2;
  window.ArenaFeed = MqttFeed;
})();
