// Lexical's voice activity detection, on the audio thread: an AudioWorkletProcessor that turns
// the microphone into 16 kHz mono frames of 512 samples (32 ms, the frame Silero VAD takes) and
// posts each, with the AudioContext time of its first sample, to the port static/vad.js hands
// it: the port of the worker that runs the model (static/vad-worker.js). Nothing goes to the
// main thread per frame. Loaded by static/vad.js with audioWorklet.addModule().
//
// Resampling is the box average @ricky0123/vad-web uses before the same model: each output
// sample is the mean of the input samples in its period (48 kHz: three samples; 44.1 kHz:
// 2.75625). Several input channels are mixed down to one.

const RATE = 16000;
const FRAME = 512;

class LexicalVadProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / RATE; // sampleRate and currentTime are the scope's globals
    this.out = null; // the worker's port
    this.running = true;
    this.frame = new Float32Array(FRAME);
    this.filled = 0;
    this.frameTime = 0; // context time of this.frame[0]
    this.taken = 0; // input samples consumed
    this.made = 0; // output samples made
    this.sum = 0;
    this.count = 0;
    this.port.onmessage = (event) => {
      if (event.data.type === "port") this.out = event.data.port;
      if (event.data.type === "stop") {
        this.running = false;
        this.out?.close();
        this.out = null;
      }
    };
  }

  process(inputs) {
    const channels = inputs[0];
    if (!this.running) return false;
    if (!this.out || !channels || channels.length === 0) return true;
    const length = channels[0].length;
    for (let i = 0; i < length; i++) {
      let value = 0;
      for (const channel of channels) value += channel[i];
      this.sum += value / channels.length;
      this.count++;
      this.taken++;
      if (this.taken >= (this.made + 1) * this.ratio) {
        if (this.filled === 0) this.frameTime = currentTime + i / sampleRate;
        this.frame[this.filled++] = this.sum / this.count;
        this.made++;
        this.sum = 0;
        this.count = 0;
        if (this.filled === FRAME) {
          this.out.postMessage({ samples: this.frame, time: this.frameTime }, [this.frame.buffer]);
          this.frame = new Float32Array(FRAME);
          this.filled = 0;
        }
      }
    }
    return true;
  }
}

registerProcessor("lexical-vad", LexicalVadProcessor);
