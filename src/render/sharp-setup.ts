import sharp from 'sharp';

// libvips keeps a cache of decoded images and operations (50 MB by default) that never helps
// here: every image is prepared once and kept by ImagePrep. One libvips thread per call: calls
// already run concurrently from the request pool, and more threads only grow memory.
sharp.cache(false);
sharp.concurrency(1);

export default sharp;
