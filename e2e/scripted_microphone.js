// A microphone that tests and `make bench` speak into (e2e/scripted_microphone.py), installed
// with `context.add_init_script(path=...)`. Chromium's fake capture device plays one file for
// the whole browser, so a learner's turns cannot be timed with it; here getUserMedia hands out a
// clone of one Web Audio stream, so each opening is a live track that the app may stop, and
// `__mic.say(wav)` plays a recording (base64) into it and resolves when played. `__mic.opened`
// counts openings, `__mic.said` recordings played, `__mic.detecting` live detector sessions.
(() => {
  const mic = { opened: 0, said: 0 };
  let context = null, destination = null;
  function ready() {
    if (context === null) {
      context = new AudioContext({ sampleRate: 48000 });
      destination = context.createMediaStreamDestination();
      // A real microphone's noise floor (about -60 dBFS), never digital silence.
      const noise = context.createBuffer(1, 48000, 48000);
      const samples = noise.getChannelData(0);
      for (let i = 0; i < samples.length; i++) samples[i] = (Math.random() * 2 - 1) * 0.002;
      const floor = context.createBufferSource();
      floor.buffer = noise;
      floor.loop = true;
      floor.connect(destination);
      floor.start();
    }
    return context.resume();
  }
  if (!navigator.mediaDevices) return;  // not a secure context (about:blank)
  const handed = [];
  navigator.mediaDevices.getUserMedia = async () => {
    await ready();
    mic.opened += 1;
    const stream = new MediaStream(destination.stream.getAudioTracks().map((t) => t.clone()));
    handed.push(stream);
    return stream;
  };
  // The tracks handed out end, as when a headset is unplugged ("ended" fires on each).
  mic.unplug = () => handed.forEach((stream) => stream.getTracks().forEach((track) => {
    track.stop();
    track.dispatchEvent(new Event("ended"));
  }));
  mic.say = async (b64) => {
    await ready();
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const buffer = await context.decodeAudioData(bytes.buffer);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(destination);
    await new Promise((done) => { source.onended = done; source.start(); });
    mic.said += 1;
  };
  // Each detector session is an AudioWorkletNode whose port is closed when it stops: the
  // live ones are counted, so the learner speaks only once the drill's detector listens
  // (loading it takes a second or two the first time).
  const Node = window.AudioWorkletNode;
  mic.detecting = 0;
  mic.started = 0; // detector sessions ever begun: the learner speaks into a new one each turn
  window.AudioWorkletNode = class extends Node {
    constructor(...args) {
      super(...args);
      mic.detecting += 1;
      mic.started += 1;
      const close = this.port.close.bind(this.port);
      this.port.close = () => { mic.detecting -= 1; close(); };
    }
  };
  window.__mic = mic;
})();
