// Shared by the chapters: turns a heading and a list of paragraphs into DOM nodes, so
// each chapter file holds only its words. Not for: any chapter logic.

/** @returns {HTMLElement[]} an h2 followed by one p per paragraph */
export function paragraphs(title, texts) {
  const heading = document.createElement('h2');
  heading.textContent = title;
  return [
    heading,
    ...texts.map((text) => {
      const p = document.createElement('p');
      p.textContent = text;
      return p;
    }),
  ];
}
