// The submission files a teacher hands the instructor view, read as {name, text}: from a
// file input (several files, or a folder through webkitdirectory) or from a drop, whose
// folders are walked (webkitGetAsEntry). Files that cannot be read become problems.
// Not for: judging the files (grading/read.js does).

const fileName = (file) => file.webkitRelativePath || file.name;

/** Reads File objects; {files: [{name, text}], problems: [{file, kind, reason}]}. */
export async function readFileList(list) {
  const files = [];
  const problems = [];
  for (const file of list) {
    try {
      files.push({ name: fileName(file), text: await file.text() });
    } catch (e) {
      problems.push({ file: fileName(file), student_id: '', kind: 'unreadable', reason: `the browser could not read it: ${e.message}`, graded: false });
    }
  }
  return { files, problems };
}

// Every File under a dropped entry, folders walked; readEntries answers in batches.
async function entryFiles(entry, prefix, out, problems) {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    try {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      out.push({ file, path });
    } catch (e) {
      problems.push({ file: path, student_id: '', kind: 'unreadable', reason: `the browser could not open it: ${e?.message ?? e}`, graded: false });
    }
    return;
  }
  if (!entry.isDirectory) return;
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject)).catch((e) => {
      problems.push({ file: path, student_id: '', kind: 'unreadable', reason: `the folder could not be listed: ${e?.message ?? e}`, graded: false });
      return [];
    });
    if (!batch.length) break;
    for (const child of batch) await entryFiles(child, path, out, problems);
  }
}

/** Reads a drop's files and folders (DataTransfer). */
export async function readDrop(dataTransfer) {
  const entries = [...(dataTransfer.items ?? [])].filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null);
  if (!entries.length || entries.some((e) => e === null)) return readFileList(dataTransfer.files ?? []);
  const found = [];
  const problems = [];
  for (const entry of entries) await entryFiles(entry, '', found, problems);
  const read = await readFileList(found.map(({ file, path }) => Object.defineProperty(file, 'webkitRelativePath', { value: path })));
  return { files: read.files, problems: [...problems, ...read.problems] };
}
