// A scripted Sabaki session: drives sente through @sabaki/gtp, the GTP client library of the
// Sabaki GUI, doing what Sabaki does (protocol section 4 of ../shared/protocols/GTP.md):
//   1. attach: name, version, protocol_version, list_commands sent at once, unanswered;
//   2. sync a 9x9 position through ControllerStateTracker: komi, boardsize, then clear_board
//      and every play pipelined (setup stones as plays of the same colour in a row);
//   3. sync a longer game sharing that prefix (the tracker takes the undo path);
//   4. genmove;
//   5. lz-analyze B 10, interrupted by protocol_version (Sabaki's sendAbort) after the first
//      info line: the analysis must end at once and the next command be answered;
//   6. kata-analyze W 10 the same way, kata-analyze W 10 ownership true (Lizzie's heat map: 81
//      values after the last pv), and lz-genmove_analyze ending with `play <vertex>`;
//   7. quit within Sabaki's 3 s.
// Usage: node session.js path/to/sente [engine args...]. Prints what it checked; exit 1 on the
// first failure.

'use strict'

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const [enginePath, ...engineArgs] = process.argv.slice(2)
if (!enginePath) {
  console.error('usage: node session.js path/to/sente [args...]')
  process.exit(2)
}

function check(ok, what) {
  if (!ok) throw new Error(`FAILED: ${what}`)
  console.log(`ok: ${what}`)
}

const vertexRe = /^([a-hj-t][1-9]|[a-hj-t]1[0-9]|pass|resign)$/i

async function analyse(controller, name, color, abortAfter, extra = []) {
  let infoLines = []
  let ended = null
  let sentAbortAt = null
  let abort = null
  let response = controller.sendCommand({name, args: [color, '10', ...extra]}, ({line, end}) => {
    if (line.startsWith('info ')) infoLines.push(line)
    if (end) ended = Date.now()
    if (infoLines.length >= abortAfter && abort == null) {
      sentAbortAt = Date.now()
      abort = controller.sendCommand({name: 'protocol_version'})
    }
  })
  // A safety net: if the engine never streams, abort anyway after 5 s.
  let timer = setTimeout(() => {
    if (abort == null) {
      sentAbortAt = Date.now()
      abort = controller.sendCommand({name: 'protocol_version'})
    }
  }, 5000)
  let res = await response
  clearTimeout(timer)
  let next = await abort
  return {res, infoLines, next, latency: ended - sentAbortAt}
}

function parseInfo(line) {
  // As Sabaki does: split on `info `, then key/value pairs until `pv`.
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(part => {
      let [head, pv] = part.split(/\s+pv\s+/)
      let tokens = head.trim().split(/\s+/)
      let obj = {pv: (pv || '').trim().split(/\s+/)}
      for (let i = 0; i + 1 < tokens.length; i += 2) obj[tokens[i]] = tokens[i + 1]
      return obj
    })
}

async function main() {
  let controller = new Controller(enginePath, engineArgs)
  let stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()

  // 1. Attach, as Sabaki's EngineSyncer does on `started`.
  let [name, version, protocol, commands] = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(n =>
      controller.sendCommand({name: n})
    )
  )
  check(!name.error && name.content === 'sente', `name answers sente (got ${name.content})`)
  check(!version.error && version.content.length > 0, `version answers ${version.content}`)
  check(protocol.content === '2', 'protocol_version answers 2')
  let listed = commands.content.split('\n')
  for (let c of ['undo', 'lz-analyze', 'kata-analyze', 'lz-genmove_analyze', 'set_free_handicap'])
    check(listed.includes(c), `list_commands includes ${c}`)

  // 2. Pipelined sync: clear_board and every play at once.
  let tracker = new ControllerStateTracker(controller)
  let play = (c, v) => ({name: 'play', args: [c, v]})
  let history = [
    play('B', 'C3'),
    play('B', 'G7'), // setup stones arrive as plays of the same colour
    play('W', 'E5'),
    play('B', 'C7'),
    play('W', 'pass'),
    play('B', 'G3')
  ]
  let sent = []
  controller.on('command-sent', ({command}) => sent.push(command.name))
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history})
  check(tracker.state.history.length === history.length, 'sync: the tracker holds the position')
  let clearAt = sent.indexOf('clear_board')
  check(
    clearAt >= 0 && sent.slice(clearAt + 1).filter(n => n === 'play').length === history.length,
    `sync sent clear_board and ${history.length} plays (${sent.join(' ')})`
  )
  let board = await controller.sendCommand({name: 'showboard'})
  let rows = board.content.split('\n')
  let row = n => rows.find(r => r.trim().startsWith(`${n} `)) || ''
  check(/X/.test(row(3)) && /X/.test(row(7)) && /O/.test(row(5)), 'showboard shows the synced stones')

  // 3. A longer game sharing the prefix: the tracker undoes and replays.
  sent.length = 0
  let longer = [...history.slice(0, 4), play('W', 'D4'), play('B', 'F6')]
  await tracker.sync({komi: 6.5, boardsize: [9, 9], history: longer})
  check(sent.includes('undo') && !sent.includes('clear_board'), `re-sync used undo (${sent.join(' ')})`)

  // 4. genmove.
  let move = await controller.sendCommand({name: 'genmove', args: ['W']})
  check(!move.error && vertexRe.test(move.content), `genmove W answers a vertex (${move.content})`)
  let occupied = ['C3', 'G7', 'E5', 'C7', 'D4', 'F6']
  check(!occupied.includes(move.content.toUpperCase()), 'genmove picked an empty point')

  // 5. lz-analyze interrupted by the next command.
  let lz = await analyse(controller, 'lz-analyze', 'B', 1)
  check(!lz.res.error, 'lz-analyze answered =')
  check(lz.infoLines.length >= 1, `lz-analyze streamed ${lz.infoLines.length} info line(s)`)
  let first = parseInfo(lz.infoLines[0])
  check(
    first.length > 0 && first.every(i => /^\d+$/.test(i.winrate) && /^\d+$/.test(i.visits)),
    `lz-analyze winrates are integers (${lz.infoLines[0].slice(0, 80)}...)`
  )
  check(first.every(i => +i.winrate >= 0 && +i.winrate <= 10000), 'lz-analyze winrates in 0..10000')
  check(lz.next.content === '2', 'the interrupting protocol_version was answered')
  check(lz.latency < 1000, `analysis ended ${lz.latency} ms after the next command`)

  // 6. kata-analyze, then lz-genmove_analyze.
  let kata = await analyse(controller, 'kata-analyze', 'W', 1)
  let kinfo = parseInfo(kata.infoLines[0] || '')
  check(
    kinfo.length > 0 && kinfo.every(i => /\./.test(i.winrate) && +i.winrate <= 1 && 'scoreLead' in i),
    'kata-analyze winrates are floats in 0..1 with scoreLead'
  )
  check(kata.next.content === '2' && kata.latency < 1000, 'kata-analyze ended on the next command')
  check(!/ownership/.test(kata.infoLines.join('\n')), 'no ownership unless asked')
  let owned = await analyse(controller, 'kata-analyze', 'W', 1, ['ownership', 'true'])
  let [infos, tail, ...more] = (owned.infoLines[0] || '').split(' ownership ')
  let values = (tail || '').split(' ')
  check(
    !owned.res.error && more.length === 0 && parseInfo(infos).length > 0,
    'kata-analyze ownership true: info blocks, then one ownership tail'
  )
  check(
    values.length === 81 && values.every(v => /^-?[01]\.\d+$/.test(v) && Math.abs(+v) <= 1),
    `with 81 values in -1..1 (${values.slice(0, 3).join(' ')} ...)`
  )
  let lines = []
  let gen = await controller.sendCommand({name: 'lz-genmove_analyze', args: ['B', '10']}, ({line}) =>
    lines.push(line)
  )
  let last = lines.filter(l => l !== '').pop() || ''
  check(!gen.error && /^play \S+$/.test(last), `lz-genmove_analyze ended with "${last}"`)
  check(vertexRe.test(last.slice(5)), 'and a vertex')

  // 7. quit.
  let t = Date.now()
  await controller.stop(3000)
  check(Date.now() - t < 3000, `quit in ${Date.now() - t} ms`)
  console.log('sabaki session: all checks passed')
}

main().catch(err => {
  console.error(err.message)
  process.exit(1)
})
