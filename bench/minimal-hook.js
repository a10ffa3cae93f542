// The anchor for hook latency: the least a Node hook can do. It parses stdin and prints {}.
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { data += chunk; });
process.stdin.on('end', () => { JSON.parse(data); process.stdout.write('{}\n'); });
